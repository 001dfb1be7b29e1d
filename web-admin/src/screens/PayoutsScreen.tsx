import { EmptyState } from '@portal/shared/ui/EmptyState';
import { WalletIcon } from '@portal/shared/ui/icons';
import { Page } from '@portal/shared/ui/Page';

/** '/admin/payouts'. */
export function PayoutsScreen() {
  return (
    <Page title="Payouts" description="Member commissions: sent to the payment provider and paid out.">
      <EmptyState icon={<WalletIcon />} title="No commissions yet.">
        <p>Commissions members earn will be listed here, ready to send to the payment provider and pay out.</p>
      </EmptyState>
    </Page>
  );
}
