import type { QueueThresholds } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';

/** What the wall needs beside the live state: the directory and the queues. Read inside withTenant. */

export interface AgentRow {
  extension: string;
  user_id: number | null;
  full_name: string | null;
  department_id: number | null;
  team_id: number | null;
  status_activity: number | null;
}

/** Every extension with the account using it (ADR 0015). */
export async function agents(tx: Queryable): Promise<AgentRow[]> {
  const { rows } = await tx.query<AgentRow>(
    `select s.extension, u.id as user_id, coalesce(nullif(u.full_name, ''), nullif(s.display_name, '')) as full_name,
       u.department_id, u.team_id, u.status_activity
     from subscribers s left join users u on u.id = s.user_id
     order by length(s.extension), s.extension`,
  );
  return rows;
}

export interface QueueRow extends QueueThresholds {
  id: number;
  name: string;
  agents: string[];
}

export async function queues(tx: Queryable): Promise<QueueRow[]> {
  const { rows } = await tx.query<QueueRow>('select id, name, agents, sla_seconds, amber_wait_seconds, red_wait_seconds from pbx_queues order by name, id');
  return rows;
}

/** The account using an extension, or null. */
export async function userOfExtension(tx: Queryable, extension: string): Promise<number | null> {
  const { rows } = await tx.query<{ user_id: number | null }>('select user_id from subscribers where extension = $1', [extension]);
  return rows[0]?.user_id ?? null;
}
