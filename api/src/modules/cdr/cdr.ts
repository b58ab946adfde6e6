import type { Disposition } from '@tongdai/contracts';
import type { RejectReason, RouteNode } from '../routing';

/**
 * Dispositions of a call record: Asterisk's names, plus BLOCKED for calls the plan refused, and for
 * calls the PBX answered without a person (ADR 0045) VOICEMAIL (a mailbox took it) and AUTO (an
 * IVR, an announcement, the mailbox menu). ANSWERED is a person's answer.
 */
export { DISPOSITIONS, type Disposition } from '@tongdai/contracts';

/** One row of the cdrs table (migration 0008). */
export interface CdrRow {
  tenant_id: number;
  call_id: string;
  caller: string;
  callee: string;
  did: string | null;
  direction: 'inbound' | 'internal' | 'outbound';
  route: RouteNode[];
  ring_group_id: number | null;
  queue_id: number | null;
  extension: string | null;
  trunk: string | null;
  started_at: Date;
  answered_at: Date | null;
  ended_at: Date;
  duration: number;
  billsec: number;
  disposition: Disposition;
  sip_code: number | null;
  reason: string;
  /** Post-call CSAT (issue 34, migration 0062): the caller's score 1–5; null or absent: not rated. */
  csat?: number | null;
}

/** Which calls of the range: every condition given must hold. */
export interface CdrFilter {
  direction?: CdrRow['direction'];
  disposition?: CdrRow['disposition'];
  /** Calls one of these extensions placed, answered, or was called on (internal); [] matches none. */
  extensions?: readonly string[];
  /** A second extension condition, ANDed: the caller's own scope (an agent sees their own calls). */
  scope?: readonly string[];
  queueId?: number;
  /** Digits found anywhere in the caller, callee or dialled number. */
  number?: string;
  /** Calls through one of these DIDs / hotlines (every written form listed); [] matches none. */
  dids?: readonly string[];
}

const BLOCKING: ReadonlySet<RejectReason> = new Set(['blocked_in', 'blocked_out', 'international', 'premium']);

/** A call the plan refused at once: blocked numbers and forbidden destinations are BLOCKED. */
export function rejectDisposition(reason: RejectReason | null): Disposition {
  if (reason && BLOCKING.has(reason)) return 'BLOCKED';
  return reason === 'busy' ? 'BUSY' : 'FAILED';
}

/** A call that was tried and never answered, by the final SIP status the caller got. */
export function failureDisposition(code: number): Disposition {
  if (code === 486 || code === 600) return 'BUSY';
  if (code === 408 || code === 480 || code === 487 || code === 603) return 'NO ANSWER';
  return 'FAILED';
}

/** Whole seconds between two instants, never negative. */
export const seconds = (from: Date, to: Date): number => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
