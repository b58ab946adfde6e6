import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTACT_LEASE_RENEW_SEC, campaignWorkApi, type CallDecision, type CampaignFamily, type ContactAnswer, type ContactResultInput, type One, type WorkNext,
} from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const key = (family: CampaignFamily, id: number) => ['campaign-work', family, id];

/** The contact this agent holds (a reload finds it again with its answers), else the next one handed out. */
export function useWorkNext(family: CampaignFamily, id: number) {
  return useQuery({
    queryKey: key(family, id),
    queryFn: () => tenantApi().post(campaignWorkApi(family).next(id)).json<One<WorkNext>>().then((r) => r.data),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

/** The screen is open: the lease is renewed while a contact is shown. */
export function renewLease(family: CampaignFamily, id: number, contactId: number) {
  return tenantApi().post(campaignWorkApi(family).lease(id, contactId)).json();
}
export const LEASE_RENEW_MS = CONTACT_LEASE_RENEW_SEC * 1000;

/**
 * One answer, upserted. `keepalive` for the page going away (pagehide: a reload, a closed tab): the
 * browser finishes the request after the page is gone (fetch keepalive, bodies up to 64 kB in all).
 */
export const saveAnswer = (family: CampaignFamily, id: number, contactId: number, answer: ContactAnswer, o: { keepalive?: boolean } = {}) =>
  tenantApi().put(campaignWorkApi(family).answer(id, contactId), { json: answer, ...(o.keepalive && { keepalive: true, retry: 0 }) });

export const placeCall = (family: CampaignFamily, id: number, contactId: number) =>
  tenantApi().post(campaignWorkApi(family).call(id, contactId)).json<One<CallDecision>>().then((r) => r.data);

/** Ends the contact with a result, then the next one is asked for. */
export function useSetResult(family: CampaignFamily, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, input }: { contactId: number; input: ContactResultInput }) =>
      tenantApi().post(campaignWorkApi(family).result(id, contactId), { json: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key(family, id) }),
  });
}

export const useRefreshWork = (family: CampaignFamily, id: number) => {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: key(family, id) });
};
