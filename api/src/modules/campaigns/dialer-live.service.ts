import type { CampaignLive } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import type { CallEventHub } from '../realtime/call-event-hub';
import { progressOf } from './campaigns.repository';

/**
 * The dialer campaigns on the /monitor wall (issue 34: "live progress on the campaign screen and on
 * /monitor … through the existing real-time channel"): each progressive, predictive or voice campaign running
 * or paused, with the same figures as its row on the campaign list (campaigns.repository `progressOf`).
 * The snapshot reads them all; after a change the dialer (a call placed, answered, connected, ended),
 * an agent's readiness or the campaign's state publish that campaign's figures again on the tenant's
 * channel, to the tenant's watchers only (no audience).
 */

/** The dialer campaigns running or paused (one when `id` is given), ordered by name, with their figures. Runs in withTenant. */
export async function dialerCampaigns(tx: Queryable, id?: number): Promise<CampaignLive[]> {
  const { rows } = await tx.query<Omit<CampaignLive, 'dialer'>>(
    `select id as campaign_id, family, name, mode, state from campaigns
      where mode in ('progressive', 'predictive', 'voice') and state in ('running', 'paused') and ($1::int is null or id = $1)
      order by name, id`,
    [id ?? null],
  );
  if (!rows.length) return [];
  const progress = await progressOf(tx, rows.map((r) => r.campaign_id));
  return rows.map((r) => ({ ...r, dialer: progress.get(r.campaign_id)!.dialer! }));
}

/**
 * Says that a campaign's dialer figures moved: each campaign's are read and published once per `delayMs`
 * however many calls moved meanwhile (a predictive round or a burst of reports moves many at once).
 */
export type DialerFiguresMoved = (tenantId: number, campaignId: number) => void;

const publishers = new WeakMap<object, DialerFiguresMoved>();

/** The one publisher of a hub (the routes that move the dialer share it, so their changes are coalesced). */
export function dialerFigures(db: Db, hub: Pick<CallEventHub, 'publish'>, delayMs = 250): DialerFiguresMoved {
  const known = publishers.get(hub);
  if (known) return known;
  const due = new Map<number, number>();
  let timer: NodeJS.Timeout | null = null;
  const flush = async () => {
    timer = null;
    const batch = [...due];
    due.clear();
    for (const [campaignId, tenantId] of batch) {
      // A database away: this change is not shown until the next one or the next snapshot.
      const found = await db.withTenant(tenantId, (tx) => dialerCampaigns(tx, campaignId)).catch(() => null);
      if (!found) continue;
      hub.publish(tenantId, { kind: 'tongdai.monitor', version: 1, at: Date.now(), type: 'campaign', campaignId, campaign: found[0] ?? null });
    }
  };
  const moved: DialerFiguresMoved = (tenantId, campaignId) => {
    due.set(campaignId, tenantId);
    timer ??= setTimeout(() => void flush(), delayMs);
  };
  publishers.set(hub, moved);
  return moved;
}
