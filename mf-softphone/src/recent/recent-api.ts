import type { RecentCallsPage } from '@tongdai/contracts';
import { session, tenantApi } from '@tongdai/platform';

/** Every query of the recent calls starts with this key: one invalidation refreshes list and badge. */
export const RECENT_KEY = ['softphone', 'recent-calls'] as const;

/** GET /histories-call: one page of the agent's recent calls (10 by default), newest first. */
export const fetchRecentPage = (cursor: string | null): Promise<RecentCallsPage> =>
  tenantApi().get('histories-call', { searchParams: cursor ? { cursor } : {} }).json<RecentCallsPage>();

/** How many calls the agent missed since `since` (the badge): the smallest page and its count. */
export const fetchMissedSince = (since: string): Promise<number> =>
  tenantApi().get('histories-call', { searchParams: { per_page: 1, missed_since: since } }).json<RecentCallsPage>().then((p) => p.missed);

/**
 * When this agent last opened the list, per tenant and extension in this browser. The first time
 * the phone starts it is "now": a phone never greets its agent with a month of old missed calls.
 */
export function lastSeen(extension: string): { get(): string; markNow(): string } {
  const key = `tongdai.softphone.recentSeen.${session.get().maDn ?? ''}.${extension}`;
  const markNow = () => {
    const now = new Date().toISOString();
    try { localStorage.setItem(key, now); } catch { /* private mode: the badge counts from page load */ }
    return now;
  };
  const stored = (() => { try { return localStorage.getItem(key); } catch { return null; } })();
  let value = stored && !Number.isNaN(Date.parse(stored)) ? stored : markNow();
  return { get: () => value, markNow: () => (value = markNow()) };
}
