import { EmptyState } from '@portal/shared/ui/EmptyState';
import { UploadIcon } from '@portal/shared/ui/icons';
import { Page } from '@portal/shared/ui/Page';

/** '/admin/product_import'. */
export function ProductImportScreen() {
  return (
    <Page title="Product Import" description="Products imported from the supplier’s CSV wait here for approval.">
      <EmptyState icon={<UploadIcon />} title="No imports yet.">
        <p>Imported products waiting to be approved or banned will be listed here.</p>
      </EmptyState>
    </Page>
  );
}
