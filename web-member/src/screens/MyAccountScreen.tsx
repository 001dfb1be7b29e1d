import { ATTENTION_REASONS } from '@portal/shared/domain/attention';
import { useAuth } from '@portal/shared/ui/AuthProvider';
import { AttentionWords } from '@portal/shared/ui/Badge';
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
          <SetupItem label="Payout account" done={accountCreated} doneText="Created" todo={ATTENTION_REASONS.account} />
          <SetupItem
            label="Payout method"
            done={methodAdded}
            doneText="Debit card added"
            todo={ATTENTION_REASONS.method}
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
  todo,
}: {
  label: string;
  done: boolean;
  doneText: string;
  /** What to do while it is not done: the red badge's words. */
  todo: string;
}) {
  return (
    <li className="checklist__item">
      <span className={done ? 'checklist__icon checklist__icon--done' : 'checklist__icon checklist__icon--todo'}>
        {done ? <CheckIcon /> : <AlertIcon />}
      </span>
      <span className="checklist__text">
        <span className="checklist__label">{label}</span>
        {done ? (
          <span className="checklist__state">{doneText}</span>
        ) : (
          <AttentionWords reasons={[todo]} data-testid={`todo-${label.toLowerCase().replaceAll(' ', '-')}`} />
        )}
      </span>
    </li>
  );
}
