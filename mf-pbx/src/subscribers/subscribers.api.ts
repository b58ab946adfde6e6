import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Account, One, Paged, Subscriber, SubscriberCreated, SubscriberInput, SubscriberPassword } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const KEY = 'subscribers';

export function useSubscriber(id: number | null) {
  return useQuery({
    queryKey: [KEY, 'one', id],
    queryFn: () => tenantApi().get(`subscribers/${id}`).json<One<Subscriber>>().then((r) => r.data),
    enabled: id !== null,
  });
}

/** Create answers with the generated password (the only time it is sent); update without. */
export function useSaveSubscriber(id: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SubscriberInput) =>
      (id === null ? tenantApi().post('subscribers', { json: input }) : tenantApi().put(`subscribers/${id}`, { json: input }))
        .json<One<SubscriberCreated | Subscriber>>()
        .then((r) => r.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: [KEY] }),
  });
}

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
