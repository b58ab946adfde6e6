import { displayForm, RECENT_CALLS_DAYS, resultOf, type RecentCall, type RecentCallsPage, type RecentCallsQuery } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { listTenantCdrs, type CdrRecord } from '../cdr/cdr.service';
import { createCustomersService } from '../customers/customers.service';
import { callContext } from './call-history.service';
import { countMissed, extensionOfUser } from './call-history.repository';

const DAY_MS = 86_400_000;

/** The other party and the side of the call the agent was on. */
function sideOf(r: CdrRecord, own: string): { direction: RecentCall['direction']; other: string } {
  const placed = r.direction !== 'inbound' && r.caller === own;
  return placed ? { direction: 'outgoing', other: r.callee } : { direction: 'incoming', other: r.caller };
}

/**
 * The softphone's recent calls (GET /histories-call): the agent's own calls from the call records,
 * the last RECENT_CALLS_DAYS days, newest first, by keyset pages (no count: the phone shows "more").
 * The same scope rule as the call history (the agent's extension placed, answered or was called),
 * the same masking and customer match; no report feature needed (every agent has a phone).
 */
export function createRecentCallsService(db: Db) {
  const customers = createCustomersService(db);
  return {
    async list(tenantId: number, userId: number, q: RecentCallsQuery): Promise<RecentCallsPage> {
      const to = new Date(Date.now() + DAY_MS);
      const from = new Date(to.getTime() - (RECENT_CALLS_DAYS + 1) * DAY_MS);
      const found = await db.withTenant(tenantId, async (tx) => {
        const own = await extensionOfUser(tx, userId);
        if (!own) return null;
        const page = await listTenantCdrs(tx, { from, to, scope: [own], limit: q.per_page, cursor: q.cursor ?? null });
        const since = q.missed_since ? new Date(q.missed_since) : null;
        return { own, page, missed: since ? await countMissed(tx, own, since, to) : 0 };
      });
      if (!found) return { data: [], next: null, missed: 0 };
      const { own, page, missed } = found;
      const sides = page.rows.map((r) => sideOf(r, own));
      const outside = sides.filter((_, i) => page.rows[i].direction !== 'internal').map((s) => s.other);
      const [{ nameOf, hide }, matched] = await Promise.all([callContext(db, tenantId), customers.byPhones(tenantId, [...new Set(outside)])]);
      const data = page.rows.map((r, i): RecentCall => {
        const { direction, other } = sides[i];
        const internal = r.direction === 'internal';
        const result = resultOf(r.disposition);
        return {
          id: r.id,
          started_at: r.started_at,
          direction,
          number: internal ? other : hide(other),
          dial: internal ? other : displayForm(other),
          name: internal ? nameOf.get(other) || null : matched.get(other)?.name ?? null,
          result,
          // A call its mailbox took is one the agent missed (the phone's badge counts it, as countMissed does).
          missed: direction === 'incoming' && (result === 'no_answer' || result === 'voicemail'),
          // An agent's talk: a call in that their mailbox (or a menu) took was no talk of theirs.
          billsec: direction === 'incoming' && result !== 'answered' ? 0 : r.billsec,
        };
      });
      return { data, next: page.next, missed };
    },
  };
}
