import { useQuery } from '@tanstack/react-query';
import { FEATURES, PERM, type Customer, type One } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';

/**
 * The customer a caller ID belongs to (GET /customers/by-phone/:phone): null when nobody has the
 * number. Not asked at all when the user may not look customers up: the card then shows the number.
 */
export function useCustomerByPhone(phone: string) {
  const { can, featureEnabled } = useCan();
  const allowed = can(PERM.customer.view) && featureEnabled(FEATURES.customer);
  const query = useQuery({
    queryKey: ['customers', 'by-phone', phone],
    queryFn: () => tenantApi().get(`customers/by-phone/${encodeURIComponent(phone)}`).json<One<Customer | null>>().then((r) => r.data),
    enabled: allowed && phone !== '',
    staleTime: 30_000,
    retry: false,
  });
  return { allowed, ...query };
}
