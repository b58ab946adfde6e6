import { useMutation, useQuery } from '@tanstack/react-query';
import type { Account, One, Paged, SubscriberPassword } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

export function useResetSubscriberPassword(id: number | null) {
  return useMutation({
    mutationFn: () => tenantApi().post(`subscribers/${id}/reset-password`).json<One<SubscriberPassword>>().then((r) => r.data.password),
  });
}

/**
 * Accounts to link a subscriber to (100 is the API's page maximum; a tenant's seat limit is
 * below it). Asked only when the user may view accounts; a 403 still shows as an error.
 */
export function useAccountOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['accounts', 'options'],
    queryFn: () => tenantApi().get('accounts', { searchParams: { per_page: 100 } }).json<Paged<Account>>().then((r) => r.data),
    enabled,
    retry: false,
  });
}
