import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The media worker's right to upload one call's recording (issue 16, ADR 0041). The API signs
 * (tenant, Call-ID, expiry) when it gives the worker a session that records; the upload carries the
 * ticket back, and the API files the recording under the tenant the ticket names — never under one
 * the worker says. The key is the API's own (RECORDING_TICKET_KEY, else JWT_SECRET, which every API
 * instance shares; a process-random key when neither is set, as in a single test process): the
 * worker holds the internal listener's secret, not this one, so it cannot forge a ticket.
 */
const TICKET_TTL_MS = 6 * 3_600_000;
let fallbackKey: string | null = null;

function key(): string {
  const k = process.env.RECORDING_TICKET_KEY || process.env.JWT_SECRET;
  if (k) return k;
  fallbackKey ??= randomBytes(32).toString('base64url');
  return fallbackKey;
}

const mac = (body: string) => createHmac('sha256', key()).update(`recording-ticket:${body}`).digest('base64url');

/** `<tenant>.<expiry ms>.<mac>`: good for one call until a few hours after it started. */
export function signRecordingTicket(tenantId: number, callId: string, now = Date.now()): string {
  const body = `${tenantId}.${now + TICKET_TTL_MS}`;
  return `${body}.${mac(`${body}.${callId}`)}`;
}

/** The tenant a ticket was signed for, when it is this call's, unexpired and genuine; else null. */
export function verifyRecordingTicket(ticket: string, callId: string, now = Date.now()): number | null {
  const m = /^(\d{1,9})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
  if (!m || Number(m[2]) < now) return null;
  const want = Buffer.from(mac(`${m[1]}.${m[2]}.${callId}`));
  const got = Buffer.from(m[3]);
  return want.length === got.length && timingSafeEqual(want, got) ? Number(m[1]) : null;
}
