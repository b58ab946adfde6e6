import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTACT_LEASE_RENEW_SEC, DIALER_POLL_SEC, campaignWorkApi, isDialerMode, type CallDecision, type CampaignFamily, type ContactAnswer, type ContactResultInput, type One, type ReadyState,
  type WorkNext,
} from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

const key = (family: CampaignFamily, id: number) => ['campaign-work', family, id];
const readyKey = (family: CampaignFamily, id: number) => ['campaign-ready', family, id];

/**
 * A progressive campaign's screen asks again while the server dials for the agent (each ask renews
 * the agent's readiness) and while the held contact's call has not ended; a paused agent, a preview
 * campaign or an ended call asks nothing until the agent acts.
 */
export function dialerPolls(work: WorkNext | undefined): boolean {
  if (!work || !isDialerMode(work.campaign.mode)) return false;
  return work.contact ? work.contact.dialer?.state !== 'ended' : work.reason === 'waiting';
}
export const DIALER_POLL_MS = DIALER_POLL_SEC * 1000;

/**
 * The contact this agent holds (a reload finds it again with its answers), else the next one handed
 * out (preview), or where the dialer stands for the agent (progressive: asked every DIALER_POLL_SEC,
 * in a hidden tab too, since the softphone there still takes the call; an unmounted screen stops).
 */
export function useWorkNext(family: CampaignFamily, id: number) {
  return useQuery({
    queryKey: key(family, id),
    queryFn: () => tenantApi().post(campaignWorkApi(family).next(id)).json<One<WorkNext>>().then((r) => r.data),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
    refetchInterval: (q) => (dialerPolls(q.state.data) ? DIALER_POLL_MS : false),
    refetchIntervalInBackground: true,
  });
}

/** GET …/ready: whether a progressive campaign's agent takes the dialer's calls (asked only for one). */
export function useReady(family: CampaignFamily, id: number, enabled: boolean) {
  return useQuery({
    queryKey: readyKey(family, id),
    queryFn: () => tenantApi().get(campaignWorkApi(family).ready(id)).json<One<ReadyState>>().then((r) => r.data),
    enabled,
    refetchOnWindowFocus: false,
  });
}

/** PUT …/ready: start or stop taking the dialer's calls; the screen then asks where it stands. */
export function useSetReady(family: CampaignFamily, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ready: boolean) => tenantApi().put(campaignWorkApi(family).ready(id), { json: { ready } }).json<One<ReadyState>>().then((r) => r.data),
    onSuccess: (state) => {
      qc.setQueryData(readyKey(family, id), state);
      return qc.invalidateQueries({ queryKey: key(family, id) });
    },
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
