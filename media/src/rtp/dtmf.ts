/** RFC 4733 telephone-events (DTMF over RTP): one digit per event, reported once at its first packet. */

const EVENTS = '0123456789*#ABCD';

export function eventDigit(event: number): string | null {
  return EVENTS[event] ?? null;
}

export function digitEvent(digit: string): number {
  const i = EVENTS.indexOf(digit.toUpperCase());
  if (i < 0) throw new Error(`not a DTMF digit: ${digit}`);
  return i;
}

/** Deduplicates an event's packets (sent every 50 ms, end packet three times) by RTP timestamp. */
export class DtmfReceiver {
  private lastTimestamp = -1;

  /** payload: the RTP payload of a telephone-event packet. Returns the digit when a new event starts. */
  receive(payload: Uint8Array, timestamp: number): string | null {
    if (payload.length < 4) return null;
    if (timestamp === this.lastTimestamp) return null;
    this.lastTimestamp = timestamp;
    return eventDigit(payload[0]);
  }
}

/** The digit of a SIP INFO body (application/dtmf-relay "Signal=1" or application/dtmf "1"). */
export function infoDigit(contentType: string, body: string): string | null {
  const type = contentType.toLowerCase();
  if (type.startsWith('application/dtmf-relay')) {
    const m = /^\s*signal\s*=\s*([0-9*#A-D])/im.exec(body);
    return m ? m[1].toUpperCase() : null;
  }
  if (type.startsWith('application/dtmf')) {
    const d = body.trim();
    return /^[0-9*#A-D]$/i.test(d) ? d.toUpperCase() : /^1[0-5]$|^[0-9]$/.test(d) ? eventDigit(Number(d)) : null;
  }
  return null;
}
