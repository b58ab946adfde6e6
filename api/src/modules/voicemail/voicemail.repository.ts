import { parseGroupMailbox } from '@tongdai/contracts';
import { cdrConditions } from '../cdr/cdr.service';
import type { Queryable } from '../../db/db';
import { iso } from '../../db/sql';

/** Runs inside withTenant (RLS supplies the tenant), or withSystem for the worker's insert. */

export interface NewMessage {
  tenantId: number;
  mailbox: string;
  caller: string;
  callId: string;
  durationSeconds: number;
  bytes: Buffer;
}

/** Stores a message; the same call leaves at most one (a retried upload is the same message). */
export async function insertMessage(tx: Queryable, m: NewMessage): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into voicemail_messages (tenant_id, mailbox, caller, call_id, duration_seconds, mime, bytes)
     values ($1, $2, $3, $4, $5, 'audio/wav', $6) on conflict (tenant_id, call_id) do nothing returning id`,
    [m.tenantId, m.mailbox, m.caller, m.callId, m.durationSeconds, m.bytes],
  );
  return rows[0]?.id ?? null;
}

/** A user's mailboxes: their extension's and the shared box of each ring group it is in. */
export async function mailboxesOf(tx: Queryable, userId: number): Promise<string[]> {
  const { rows } = await tx.query<{ box: string }>(
    `with own as (select extension from subscribers where user_id = $1)
     select extension as box from own
     union all
     select 'group-' || g.id from pbx_ring_groups g join own on own.extension = any(g.extensions)`,
    [userId],
  );
  return rows.map((r) => r.box);
}

/** Whether `extension` is in ring group `groupId` (a member opens its shared box). */
export async function isGroupMember(tx: Queryable, groupId: number, extension: string): Promise<boolean> {
  const { rows } = await tx.query('select 1 from pbx_ring_groups where id = $1 and $2 = any(extensions)', [groupId, extension]);
  return rows.length > 0;
}

export async function mailboxExists(tx: Queryable, mailbox: string): Promise<boolean> {
  const group = parseGroupMailbox(mailbox);
  const { rows } = group !== null
    ? await tx.query('select 1 from pbx_ring_groups where id = $1', [group])
    : await tx.query('select 1 from subscribers where extension = $1', [mailbox]);
  return rows.length > 0;
}

type Row = { id: number; mailbox: string; caller: string; duration_seconds: string | number; created_at: Date | string; heard_at: Date | null };

export async function listMessages(tx: Queryable, boxes: string[]) {
  const { rows } = await tx.query<Row>(
    `select id, mailbox, caller, duration_seconds, created_at, heard_at from voicemail_messages
     where mailbox = any($1::text[]) order by created_at desc, id desc limit 200`,
    [boxes],
  );
  return rows.map((r) => ({ id: r.id, mailbox: r.mailbox, caller: r.caller, duration_seconds: Number(r.duration_seconds), created_at: iso(r.created_at), heard: r.heard_at !== null }));
}

export async function countUnheard(tx: Queryable, boxes: string[]): Promise<number> {
  const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from voicemail_messages where mailbox = any($1::text[]) and heard_at is null', [boxes]);
  return rows[0].n;
}

export async function audioOf(tx: Queryable, id: number, boxes: string[]): Promise<Buffer | null> {
  const { rows } = await tx.query<{ bytes: Buffer | Uint8Array }>('select bytes from voicemail_messages where id = $1 and mailbox = any($2::text[])', [id, boxes]);
  return rows[0] ? Buffer.from(rows[0].bytes) : null;
}

/** The message's mailbox, or null when it is not in `boxes`. */
export async function setHeard(tx: Queryable, id: number, boxes: string[], heard: boolean): Promise<string | null> {
  const { rows } = await tx.query<{ mailbox: string }>(
    `update voicemail_messages set heard_at = case when $3 then coalesce(heard_at, now()) else null end
     where id = $1 and mailbox = any($2::text[]) returning mailbox`,
    [id, boxes, heard],
  );
  return rows[0]?.mailbox ?? null;
}

/** The deleted message's mailbox, or null when it is not in `boxes`. */
export async function deleteMessage(tx: Queryable, id: number, boxes: string[]): Promise<string | null> {
  const { rows } = await tx.query<{ mailbox: string }>('delete from voicemail_messages where id = $1 and mailbox = any($2::text[]) returning mailbox', [id, boxes]);
  return rows[0]?.mailbox ?? null;
}

/** An extension's mailbox PIN: undefined when the extension does not exist, null when it has none. */
export async function mailboxPin(tx: Queryable, extension: string): Promise<string | null | undefined> {
  const { rows } = await tx.query<{ pin: string | null }>('select voicemail_pin as pin from subscribers where extension = $1', [extension]);
  return rows.length ? rows[0].pin : undefined;
}

/** New and heard messages of one mailbox, and the tenant's code (its SIP domain): what a MWI NOTIFY says. */
export async function mailboxCounts(tx: Queryable, mailbox: string): Promise<{ ma_dn: string; unheard: number; heard: number } | null> {
  const { rows } = await tx.query<{ ma_dn: string; unheard: number; heard: number }>(
    `select t.ma_dn,
            (select count(*)::int from voicemail_messages where mailbox = $1 and heard_at is null) as unheard,
            (select count(*)::int from voicemail_messages where mailbox = $1 and heard_at is not null) as heard
       from tenants t where t.id = nullif(current_setting('app.tenant_id', true), '')::int`,
    [mailbox],
  );
  return rows[0] ?? null;
}

/** The messages these calls left (one statement for a page of the call history), by Call-ID. */
export async function messagesOfCalls(tx: Queryable, callIds: readonly string[]): Promise<Map<string, { id: number; duration_seconds: number }>> {
  if (!callIds.length) return new Map();
  const { rows } = await tx.query<{ id: number; call_id: string; duration_seconds: string | number }>(
    'select id, call_id, duration_seconds from voicemail_messages where call_id = any($1::text[])',
    [[...new Set(callIds)]],
  );
  return new Map(rows.map((r) => [r.call_id, { id: r.id, duration_seconds: Number(r.duration_seconds) }]));
}

/**
 * A message's audio when the call that left it is among the calls of `scope` (the call history's
 * condition on the call's record, cdrConditions); undefined scope: the whole tenant. Null otherwise.
 */
export async function messageOfCallInScope(tx: Queryable, id: number, scope?: readonly string[]): Promise<Buffer | null> {
  const params: unknown[] = [id];
  const inScope = scope ? ` and ${cdrConditions({ from: new Date(0), to: new Date('9999-12-31T00:00:00Z'), scope }, params)}` : '';
  const { rows } = await tx.query<{ bytes: Buffer | Uint8Array }>(
    `select m.bytes from voicemail_messages m
      where m.id = $1${scope ? ` and exists (select 1 from cdrs where call_id = m.call_id${inScope})` : ''}`,
    params,
  );
  return rows[0] ? Buffer.from(rows[0].bytes) : null;
}
