import * as v from 'valibot';
import { PAGE_SIZE } from './constants';
import type { CallDirection } from './subscribers';
import type { CallResult } from './reports';

/**
 * GET /histories-call (SPEC §7): the logged-in agent's own recent calls, read from the call records
 * (not from what the browser logged with POST create-histories-call), newest first, by keyset pages.
 */
export const RecentCallsQuerySchema = v.object({
  /** `next` of the previous page; absent for the first. */
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200))),
  per_page: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer('Phải là số nguyên'), v.minValue(1), v.maxValue(50)), PAGE_SIZE),
  /** Count the calls the agent missed since this instant (the softphone's badge): ISO date-time. */
  missed_since: v.optional(v.pipe(v.string(), v.check((s) => !Number.isNaN(Date.parse(s)), 'Thời điểm không hợp lệ'))),
});
export type RecentCallsQuery = v.InferOutput<typeof RecentCallsQuerySchema>;

/** How far back "recent" reaches: the window the query reads (monthly partitions stay few). */
export const RECENT_CALLS_DAYS = 30;

/** One call as the agent's softphone lists it: from the agent's side of the call. */
export interface RecentCall {
  id: number;
  started_at: string;
  /** incoming: someone called the agent; outgoing: the agent called. */
  direction: CallDirection;
  /** The other party as shown: an outside number in national form, masked per the tenant's setting. */
  number: string;
  /** What a click redials (the unmasked number: the phone has to dial it). */
  dial: string;
  /** The colleague on an internal call, or the customer the outside number matched. */
  name: string | null;
  result: CallResult;
  /** An incoming call the agent did not answer. */
  missed: boolean;
  /** Talk seconds (0 when not answered). */
  billsec: number;
}

export interface RecentCallsPage {
  data: RecentCall[];
  next: string | null;
  /** Missed calls since `missed_since` (0 when it was not asked). */
  missed: number;
}
