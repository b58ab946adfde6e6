import type { CallReportOptions, SwitchboardCarrier } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { cdrConditions as conditions, type CdrRangeQuery } from '../cdr/cdr.service';
import { userExtensionSql } from '../subscribers/subscribers.service';

/**
 * The directory a call-history page needs beside its call records: who uses each extension,
 * which extensions sit in a department or team, the names of queues. Read inside withTenant.
 */

/** Extensions with the person using them (the account linked to the subscriber, ADR 0015). */
export async function extensionPeople(tx: Queryable): Promise<CallReportOptions['extensions']> {
  const { rows } = await tx.query<{ extension: string; name: string }>(
    `select s.extension, coalesce(nullif(u.full_name, ''), s.display_name) as name
     from subscribers s left join users u on u.id = s.user_id order by s.extension`,
  );
  return rows;
}

/** Extensions of the accounts in a department and/or team. */
export async function extensionsOfOrg(tx: Queryable, by: { departmentId?: number; teamId?: number }): Promise<string[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (by.departmentId !== undefined) where.push(`u.department_id = $${params.push(by.departmentId)}`);
  if (by.teamId !== undefined) where.push(`u.team_id = $${params.push(by.teamId)}`);
  const { rows } = await tx.query<{ extension: string }>(
    `select s.extension from subscribers s join users u on u.id = s.user_id where ${where.join(' and ')}`,
    params,
  );
  return rows.map((r) => r.extension);
}

/** Which of these rows exist: 'department' | 'team' | 'queue' | 'extension' → found. */
export async function existing(tx: Queryable, q: { departmentId?: number; teamId?: number; queueId?: number; extension?: string; numberForms?: string[] }) {
  const { rows } = await tx.query<{ department: boolean; team: boolean; queue: boolean; extension: boolean; number: boolean }>(
    `select exists(select 1 from departments where id = $1) as department, exists(select 1 from teams where id = $2) as team,
            exists(select 1 from pbx_queues where id = $3) as queue, exists(select 1 from subscribers where extension = $4) as extension,
            exists(select 1 from pbx_numbers where number = any($5::text[])) as number`,
    [q.departmentId ?? 0, q.teamId ?? 0, q.queueId ?? 0, q.extension ?? '', q.numberForms ?? []],
  );
  return rows[0];
}

export async function filterChoices(tx: Queryable): Promise<Omit<CallReportOptions, 'extensions' | 'hotlines'>> {
  // One transaction runs one statement at a time.
  const departments = await tx.query<{ id: number; name: string }>('select id, name from departments order by name');
  const teams = await tx.query<{ id: number; name: string; department_id: number }>('select id, name, department_id from teams order by name');
  const queues = await tx.query<{ id: number; name: string }>('select id, name from pbx_queues order by name');
  return { departments: departments.rows, teams: teams.rows, queues: queues.rows };
}

/** The tenant's hotlines: its numbers bound to a carrier switchboard, with that switchboard. */
export async function hotlines(tx: Queryable): Promise<{ number: string; carrier: SwitchboardCarrier; switchboard: string }[]> {
  const { rows } = await tx.query<{ number: string; carrier: SwitchboardCarrier; switchboard: string }>(
    `select n.number, s.carrier, s.name as switchboard from pbx_numbers n join telecom_switchboards s on s.id = n.switchboard_id order by n.number`,
  );
  return rows;
}

/**
 * The parties of one call record, when it is among the calls of `scope` (undefined: the tenant's
 * whole history); null for a record the viewer may not see or that does not exist.
 */
export async function callParties(tx: Queryable, id: number, scope?: string[]): Promise<{ direction: 'inbound' | 'internal' | 'outbound'; caller: string; callee: string } | null> {
  const params: unknown[] = [id];
  const where = conditions({ from: new Date(0), to: new Date('9999-12-31T00:00:00Z'), ...(scope && { scope }) }, params);
  const { rows } = await tx.query<{ direction: 'inbound' | 'internal' | 'outbound'; caller: string; callee: string }>(
    `select direction, caller, callee from cdrs where id = $1 and ${where}`,
    params,
  );
  return rows[0] ?? null;
}

/**
 * Calls through a hotline or trunk (inbound and outbound), counted per hotline, direction, the
 * outside number's first six characters and length (enough to tell its carrier and kind) and
 * talk seconds (so any block rule can bill the groups exactly).
 */
export async function carrierGroups(tx: Queryable, filter: Omit<CdrRangeQuery, 'limit'>) {
  const params: unknown[] = [];
  const where = conditions(filter, params);
  const { rows } = await tx.query<{ hotline: string; direction: 'inbound' | 'outbound'; head: string; len: number; billsec: number; calls: number; answered: number }>(
    `select coalesce(did, trunk, '') as hotline, direction, left(ext, 6) as head, length(ext) as len, billsec,
            count(*)::int as calls, (count(*) filter (where disposition = 'ANSWERED'))::int as answered
       from (select *, case when direction = 'inbound' then caller else callee end as ext from cdrs
              where ${where} and direction in ('inbound', 'outbound')) x
      group by 1, 2, 3, 4, 5`,
    params,
  );
  return rows;
}

/**
 * Calls to this extension it did not answer, started in [from, to): the internal calls dialled to
 * it. An outside call's record names its DID, not the extensions it rang, so an unanswered call
 * from outside is the hotline's miss (the call history shows it), not one agent's (ADR 0032).
 */
export async function countMissed(tx: Queryable, extension: string, from: Date, to: Date): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n from cdrs
      where started_at >= $1 and started_at < $2 and disposition = 'NO ANSWER' and direction = 'internal' and callee = $3`,
    [from, to, extension],
  );
  return rows[0].n;
}

/** A user's own extension (the softphone's recent calls are the agent's own, whatever their scope). */
export async function extensionOfUser(tx: Queryable, userId: number): Promise<string | null> {
  const { rows } = await tx.query<{ extension: string | null }>(`select ${userExtensionSql('$1')} as extension`, [userId]);
  return rows[0]?.extension ?? null;
}

/**
 * Calls per DID as the records name it (inbound: the number called; outbound: the hotline
 * presented), started in [from, to). The rollups do not keep the DID, so this reads the records of
 * the range (one Vietnam day for "calls today", on the (tenant, started_at) index).
 */
export async function callsPerDid(tx: Queryable, from: Date, to: Date): Promise<{ did: string; calls: number }[]> {
  const { rows } = await tx.query<{ did: string; calls: number }>(
    'select did, count(*)::int as calls from cdrs where started_at >= $1 and started_at < $2 and did is not null group by did',
    [from, to],
  );
  return rows;
}
