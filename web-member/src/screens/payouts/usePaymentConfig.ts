import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/shared/ui/hooks/AuthProvider';

/** The publishable key and, against the local emulator, where the browser reaches it. */
export function usePaymentConfig() {
  const { call } = useAuth();
  return useQuery({
    queryKey: ['paymentConfig'],
    queryFn: () => call('getPaymentConfig', {}),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The member's payout card(s) at the payment provider. */
export function usePayoutCards(accountId: string | null | undefined) {
  const { call } = useAuth();
  return useQuery({
    queryKey: ['payoutCards', accountId],
    queryFn: () => call('getExternalAccounts', { id: accountId ?? '' }),
    enabled: Boolean(accountId),
  });
}
