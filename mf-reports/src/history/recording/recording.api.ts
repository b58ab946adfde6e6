import { RECORDING_API, RECORDING_MSG, VOICEMAIL_API, type ApiErrorBody } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

/** Long enough for an hour's MP3 on a slow line. */
const TIMEOUT = 120_000;

/** A recording's bytes, fetched with the viewer's bearer token: there is no public link to them. */
export const fetchRecordingAudio = (id: number): Promise<Blob> => tenantApi().get(RECORDING_API.audio(id), { timeout: TIMEOUT }).blob();

/** The voicemail message a call left (issue 16), with the viewer's token like a recording. */
export const fetchVoicemailOfCall = (id: number): Promise<Blob> => tenantApi().get(VOICEMAIL_API.ofCall(id), { timeout: TIMEOUT }).blob();

/** A refused recording as the viewer reads it: a 404 is one deleted (by hand or at the end of its retention). */
export const recordingMessage = (error: ApiErrorBody): string => (error.status === 404 ? RECORDING_MSG.notFound : error.message);

/**
 * The file name a content-disposition header gives (RFC 6266: filename* in UTF-8 first, then
 * filename), without any folder part; `fallback` when it names none.
 */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const header = disposition ?? '';
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  let name: string | undefined;
  if (extended) {
    try { name = decodeURIComponent(extended[1].trim()); } catch { /* malformed: try the plain one */ }
  }
  name ??= /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header)?.slice(1).find((x) => x !== undefined)?.trim();
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base || fallback;
}

/** The recording as a file to keep (recording.download): its bytes and the name the API gives it. */
export async function fetchRecordingFile(id: number): Promise<{ blob: Blob; name: string }> {
  const res = await tenantApi().get(RECORDING_API.download(id), { timeout: TIMEOUT });
  return { blob: await res.blob(), name: fileNameOf(res.headers.get('content-disposition'), `ghi-am-${id}.mp3`) };
}
