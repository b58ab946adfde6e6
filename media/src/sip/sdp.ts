import type { RtpPeer } from '../rtp/session';

export interface AudioOffer {
  peer: RtpPeer;
  /** The offer carries PCMU (payload type 0). */
  pcmu: boolean;
  /** Every payload type of the audio stream, in the offer's order of preference. */
  payloadTypes: number[];
  /** Payload type of telephone-event/8000, if offered. */
  dtmf: number | null;
}

/** The audio stream of an SDP offer or answer: where to send RTP and which payloads it accepts. */
export function parseSdp(sdp: string): AudioOffer | null {
  const lines = sdp.split(/\r?\n/);
  let sessionAddr: string | null = null;
  let mediaAddr: string | null = null;
  let port = 0;
  let pts: number[] = [];
  let inAudio = false;
  let dtmf: number | null = null;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      inAudio = line.startsWith('m=audio ') && port === 0;
      if (inAudio) {
        const parts = line.split(' ');
        port = Number(parts[1]);
        pts = parts.slice(3).map(Number);
      }
    } else if (line.startsWith('c=IN IP4 ')) {
      const addr = line.slice(9).trim().split('/')[0];
      if (port === 0 && !inAudio) sessionAddr = addr;
      else if (inAudio) mediaAddr = addr;
    } else if (inAudio && /^a=rtpmap:(\d+) telephone-event\/8000/i.test(line)) {
      dtmf = Number(/^a=rtpmap:(\d+)/.exec(line)![1]);
    }
  }
  const address = mediaAddr ?? sessionAddr;
  if (!address || !port) return null;
  return { peer: { address, port }, pcmu: pts.includes(0), payloadTypes: pts, dtmf: dtmf !== null && pts.includes(dtmf) ? dtmf : null };
}

/** Our side: PCMU and telephone-event (101, or the payload type the offer chose). */
export function buildSdp(o: { address: string; port: number; dtmf?: number | null; sessionId: number }): string {
  const dtmf = o.dtmf ?? 101;
  return [
    'v=0',
    `o=tongdai-media ${o.sessionId} ${o.sessionId} IN IP4 ${o.address}`,
    's=tongdai-media',
    `c=IN IP4 ${o.address}`,
    't=0 0',
    `m=audio ${o.port} RTP/AVP 0 ${dtmf}`,
    'a=rtpmap:0 PCMU/8000',
    `a=rtpmap:${dtmf} telephone-event/8000`,
    `a=fmtp:${dtmf} 0-16`,
    'a=ptime:20',
    'a=sendrecv',
    '',
  ].join('\r\n');
}
