import { useAuth } from '@portal/shared/ui/AuthProvider';
import { EmptyState } from '@portal/shared/ui/EmptyState';
import { AlertIcon, CheckIcon, ReceiptIcon } from '@portal/shared/ui/icons';
import { Page } from '@portal/shared/ui/Page';

/** '/my_account': the member's payout set-up and (later) commissions. */
export function MyAccountScreen() {
  const { userProfile } = useAuth();
  const accountCreated = userProfile?.isAccountCreated === 1;
  const methodAdded = userProfile?.isPayoutMethodAdded === 1;
  return (
    <Page title="My Account" description={userProfile ? `Logged in as ${userProfile.email}` : undefined}>
      <section aria-labelledby="payout-setup">
        <h2 className="section-title" id="payout-setup">
          Payout set-up
        </h2>
        <ul className="card checklist">
          <SetupItem label="Payout account" done={accountCreated} doneText="Created" todoText="Not created yet" />
          <SetupItem
            label="Payout method"
            done={methodAdded}
            doneText="Debit card added"
            todoText="No debit card added yet"
          />
        </ul>
      </section>
      <section aria-labelledby="commissions">
        <h2 className="section-title" id="commissions">
          Commissions
        </h2>
        <EmptyState icon={<ReceiptIcon />} title="No commissions yet.">
          <p>
            When a customer orders a product you shared, your commission appears here: first in processing, then paid.
          </p>
        </EmptyState>
      </section>
    </Page>
  );
}

function SetupItem({
  label,
  done,
  doneText,
  todoText,
}: {
  label: string;
  done: boolean;
  doneText: string;
  todoText: string;
}) {
  return (
    <li className="checklist__item">
      <span className={done ? 'checklist__icon checklist__icon--done' : 'checklist__icon checklist__icon--todo'}>
        {done ? <CheckIcon /> : <AlertIcon />}
      </span>
      <span className="checklist__text">
        <span className="checklist__label">{label}</span>
        <span className="checklist__state">{done ? doneText : todoText}</span>
      </span>
    </li>
  );
}
