import { PT_PCMA, PT_PCMU } from '@tongdai/media/rtp/session';

export type G711 = typeof PT_PCMU | typeof PT_PCMA;
export const CODEC_NAME: Record<G711, string> = { [PT_PCMU]: 'PCMU', [PT_PCMA]: 'PCMA' };

/** The first G.711 payload type of an offer, in its order of preference; null: none offered. */
export const chooseG711 = (payloadTypes: number[]): G711 | null => (payloadTypes.find((pt) => pt === PT_PCMU || pt === PT_PCMA) as G711 | undefined) ?? null;

/** The carrier's SDP: an offer lists PCMA and PCMU (what the trunk's codecs default to), an answer the one chosen. */
export function carrierSdp(o: { address: string; port: number; payloadTypes: G711[]; dtmf?: number | null; sessionId: number }): string {
  const dtmf = o.dtmf === undefined ? 101 : o.dtmf;
  const pts = [...o.payloadTypes, ...(dtmf !== null ? [dtmf] : [])];
  return [
    'v=0',
    `o=demo-carrier ${o.sessionId} ${o.sessionId} IN IP4 ${o.address}`,
    's=demo-carrier',
    `c=IN IP4 ${o.address}`,
    't=0 0',
    `m=audio ${o.port} RTP/AVP ${pts.join(' ')}`,
    ...o.payloadTypes.map((pt) => `a=rtpmap:${pt} ${CODEC_NAME[pt]}/8000`),
    ...(dtmf !== null ? [`a=rtpmap:${dtmf} telephone-event/8000`, `a=fmtp:${dtmf} 0-16`] : []),
    'a=ptime:20',
    'a=sendrecv',
    '',
  ].join('\r\n');
}
