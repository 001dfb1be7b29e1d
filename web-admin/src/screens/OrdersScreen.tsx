import { EmptyState } from '@portal/shared/ui/EmptyState';
import { ReceiptIcon } from '@portal/shared/ui/icons';
import { Page } from '@portal/shared/ui/Page';

/** '/admin/orders'. */
export function OrdersScreen() {
  return (
    <Page title="Orders" description="Customer orders, from ordered through shipped to fulfilled.">
      <EmptyState icon={<ReceiptIcon />} title="No orders yet.">
        <p>Orders customers place will be listed here, with what still needs to be ordered, shipped or fulfilled.</p>
      </EmptyState>
    </Page>
  );
}
