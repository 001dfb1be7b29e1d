import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ChevronRightIcon, ReceiptIcon, UploadIcon, WalletIcon } from '@portal/shared/ui/components/icons';
import { Page } from '@portal/shared/ui/components/Page';

/** '/admin/': where the three admin sections start. */
export function AdminHomeScreen() {
  return (
    <Page title="Admin" description="The supplier catalogue, customer orders and member commissions.">
      <nav aria-label="Admin sections">
        <ul className="card-grid card-grid--3 plain-list" role="list">
          <SectionCard to="/product_import" title="Product Import" icon={<UploadIcon />}>
            Supplier products imported from CSV, waiting for approval.
          </SectionCard>
          <SectionCard to="/orders" title="Orders" icon={<ReceiptIcon />}>
            Customer orders and where each one stands: ordered, shipped, fulfilled.
          </SectionCard>
          <SectionCard to="/payouts" title="Payouts" icon={<WalletIcon />}>
            Member commissions: sent to the payment provider and paid out.
          </SectionCard>
        </ul>
      </nav>
    </Page>
  );
}

function SectionCard({
  to,
  title,
  icon,
  children,
}: {
  to: string;
  title: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <li>
      <Link className="card nav-card" to={to}>
        <span className="nav-card__icon" aria-hidden="true">
          {icon}
        </span>
        <span className="nav-card__title">
          {title}
          <ChevronRightIcon />
        </span>
        <span className="nav-card__text">{children}</span>
      </Link>
    </li>
  );
}
