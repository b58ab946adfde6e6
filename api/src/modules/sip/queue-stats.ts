import type { PbxConfig } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import type { CallTracker, QueueAgentEvent } from '../cdr/call-tracker';
import { memoryKey, type AgentStats, type LiveState } from '../routing';

/** The strategies that order a queue's agents by what happened before. */
const REMEMBERING = new Set(['rrmemory', 'leastrecent', 'fewestcalls']);

type Row = { queue_id: number; extension: string; calls: number; last_answered_at: Date; last_ended_at: Date | null };

/**
 * What the queue strategies remember, in PostgreSQL (migration 0037): each answer of a queue's
 * agent and each end of such a call, as the call tracker reports them; read back for each plan of
 * a tenant that has a queue ordered by rrmemory, leastrecent or fewestcalls. Every API instance
 * reads the same rows, so two instances ring a rrmemory queue's agents in turn, and a restart
 * forgets nothing (Asterisk keeps these per queue member too).
 */
export class QueueStats {
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Records what `tracker` reports from now on. */
  follow(tracker: CallTracker): this {
    tracker.events.on('queue-agent', (e: QueueAgentEvent) => void this.record(e));
    return this;
  }

  /**
   * One agent event, written in arrival order (an end never lands before its answer). A failed
   * write is reported and the next ones go on: a plan must never wait on a broken statistic.
   */
  record(e: QueueAgentEvent): Promise<void> {
    this.writes = this.writes.then(() => this.write(e)).catch(this.onError);
    return this.writes;
  }

  /** Resolves once every event recorded so far is written (tests, shutdown). */
  flushed(): Promise<void> {
    return this.writes;
  }

  private async write(e: QueueAgentEvent): Promise<void> {
    await this.db.withTenant(e.tenantId, async (tx) => {
      if (e.endedAt === null) {
        await tx.query(
          `insert into queue_agent_stats as s (tenant_id, queue_id, extension, calls, last_answered_at)
           select $1, q.id, $3, 1, $4 from pbx_queues q where q.id = $2
           on conflict (tenant_id, queue_id, extension)
           do update set calls = s.calls + 1, last_answered_at = greatest(s.last_answered_at, excluded.last_answered_at)`,
          [e.tenantId, e.queueId, e.extension, e.answeredAt],
        );
      } else {
        await tx.query(
          `update queue_agent_stats set last_ended_at = greatest(coalesce(last_ended_at, $4), $4)
           where tenant_id = $1 and queue_id = $2 and extension = $3`,
          [e.tenantId, e.queueId, e.extension, e.endedAt],
        );
      }
    });
  }

  /**
   * The queue part of a plan's live state: statistics and memory of the tenant's queues whose
   * strategy uses them (none: no query).
   */
  async live(tenantId: number, config: Pick<PbxConfig, 'queues'>): Promise<Pick<LiveState, 'queueStats' | 'memory'>> {
    const ids = config.queues.filter((q) => REMEMBERING.has(q.strategy)).map((q) => q.id);
    const queueStats = new Map<number, Map<string, AgentStats>>();
    const memory = new Map<string, string>();
    if (!ids.length) return { queueStats, memory };
    const rows = await this.db.withTenant(tenantId, async (tx) =>
      (await tx.query<Row>('select queue_id, extension, calls, last_answered_at, last_ended_at from queue_agent_stats where queue_id = any($1::int[])', [ids])).rows,
    );
    const latest = new Map<number, Row>();
    for (const r of rows) {
      const byAgent = queueStats.get(r.queue_id) ?? queueStats.set(r.queue_id, new Map()).get(r.queue_id)!;
      // A call still in progress counts from its answer (Asterisk: the agent is not idle).
      byAgent.set(r.extension, { calls: r.calls, lastCallAt: new Date(Math.max(new Date(r.last_answered_at).getTime(), r.last_ended_at ? new Date(r.last_ended_at).getTime() : 0)) });
      const l = latest.get(r.queue_id);
      if (!l || new Date(r.last_answered_at) > new Date(l.last_answered_at)) latest.set(r.queue_id, r);
    }
    for (const [queueId, r] of latest) memory.set(memoryKey('queue', queueId), r.extension);
    return { queueStats, memory };
  }
}
