import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { INTEGRATIONS_TENANT_API, type One, type OtpKey, type Paged } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource } from '@tongdai/ui';

/** The CRM's keys and their delivery log on the tenant surface (INTEGRATIONS_TENANT_API). */
export const crmKeyResource = crudResource({ scope: 'integrations', name: 'key', base: INTEGRATIONS_TENANT_API.keys, client: tenantApi });
export const callDeliveryResource = crudResource({ scope: 'integrations', name: 'delivery', base: INTEGRATIONS_TENANT_API.deliveries, client: tenantApi });

/** Every CRM key (the log's key filter). */
export function useCrmKeys() {
  return useQuery({ queryKey: ['integrations', 'key', 'all'], queryFn: () => tenantApi().get(INTEGRATIONS_TENANT_API.keys).json<Paged<OtpKey>>().then((r) => r.data) });
}

export function useRevokeCrmKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => tenantApi().post(INTEGRATIONS_TENANT_API.revoke(id)).json<One<OtpKey>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['integrations'] }),
  });
}

/** A new webhook signing secret for the key, answered once. */
export function useRotateCrmSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => tenantApi().post(INTEGRATIONS_TENANT_API.webhookSecret(id)).json<One<{ webhook_secret: string }>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['integrations', 'key'] }),
  });
}
