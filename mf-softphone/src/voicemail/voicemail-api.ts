import { VOICEMAIL_API, type VoicemailList } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

/** One key for the list and the badge: one invalidation refreshes both. */
export const VOICEMAIL_KEY = ['softphone', 'voicemail'] as const;

/** GET /voicemail: the agent's messages (their extension's box and their ring groups'), newest first. */
export const fetchVoicemail = (): Promise<VoicemailList> => tenantApi().get(VOICEMAIL_API.list).json<VoicemailList>();

/** A message's audio, fetched with the session (no public link): a blob URL for the player. */
export const fetchVoicemailAudio = async (id: number): Promise<string> =>
  URL.createObjectURL(await tenantApi().get(VOICEMAIL_API.audio(id)).blob());

export const markHeard = (id: number): Promise<unknown> => tenantApi().patch(VOICEMAIL_API.one(id), { json: { heard: true } });

export const deleteVoicemail = (id: number): Promise<unknown> => tenantApi().delete(VOICEMAIL_API.one(id));
