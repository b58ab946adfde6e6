/**
 * Which hotline and which ring group or queue a ringing call came through (issue 30): agents answer
 * a "Kinh doanh" call differently from a "CSKH" one. The API writes it into each ring step of the
 * plan; Kamailio puts it on every INVITE it forks to a phone (X-Tongdai-Via, branch route, never
 * trusted from the caller); the softphone's popup reads it. The header travels with the INVITE, so
 * it is there exactly when the phone rings, whatever path the call took (straight from Kamailio, a
 * queue's agent leg, a recorded call's leg from the media worker), and for an agent whose
 * permissions show them no call events.
 */
import { nationalForm } from './phone';

export const CALL_VIA_HEADER = 'X-Tongdai-Via';

export interface CallVia {
  /** The tenant's number the caller dialled, national form (02873001234). */
  hotline?: string;
  /** The ring group or the queue ringing this phone, by name. */
  group?: string;
  queue?: string;
}

const KEYS = ['hotline', 'group', 'queue'] as const;
/** Longest value kept: a header is no place for a paragraph. */
const MAX = 120;

/**
 * The header's value: `hotline=02873001234;group=Kinh%20doanh`, each value percent-encoded, so a
 * name (Vietnamese, any punctuation) can never break the SIP message. '' when there is nothing to say.
 */
export function formatCallVia(via: CallVia): string {
  const parts: string[] = [];
  for (const k of KEYS) {
    const value = via[k]?.trim().slice(0, MAX);
    if (value) parts.push(`${k}=${encodeURIComponent(value)}`);
  }
  return parts.join(';');
}

/** The header read back; undefined when absent or unreadable (the popup then says nothing). */
export function parseCallVia(header: string | null | undefined): CallVia | undefined {
  if (!header) return undefined;
  const via: CallVia = {};
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim() as (typeof KEYS)[number];
    if (eq < 1 || !KEYS.includes(key)) continue;
    try {
      const value = decodeURIComponent(part.slice(eq + 1).trim()).slice(0, MAX);
      if (value) via[key] = value;
    } catch {
      // A malformed escape: that part is dropped, the rest still read.
    }
  }
  return Object.keys(via).length ? via : undefined;
}

/** What a plan's ring step says of its call: the DID (any written form) and the group or queue ringing. */
export function callViaOf(did: string | null | undefined, source: { type: string; name: string } | undefined): CallVia {
  return {
    ...(did ? { hotline: nationalForm(did) } : {}),
    ...(source?.type === 'group' ? { group: source.name } : {}),
    ...(source?.type === 'queue' ? { queue: source.name } : {}),
  };
}

/** The popup's line: "Qua hotline 02873001234 · Nhóm Kinh doanh" (or "· Hàng đợi CSKH"). */
export function callViaLabel(via: CallVia | undefined): string {
  if (!via) return '';
  return [
    via.hotline && `Qua hotline ${via.hotline}`,
    via.group && `Nhóm ${via.group}`,
    via.queue && `Hàng đợi ${via.queue}`,
  ].filter(Boolean).join(' · ');
}
