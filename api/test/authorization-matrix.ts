import type { FastifyInstance, InjectOptions } from 'fastify';
import { mp3, multipart, wav } from '@tongdai/testkit/pbx-kit';
import type { Db } from '../src/db/db';
import { CdrWriter } from '../src/modules/cdr/cdr.service';
import { SURVEY_API, TELECOM_API, campaignApi, vnDay } from '@tongdai/contracts';

/** One operation of the OpenAPI document, with the access its guards declared (x-auth …). */
export interface Operation {
  method: string;
  /** OpenAPI template, e.g. /t/{ma_dn}/role/{id}. */
  path: string;
  auth?: string;
  permission?: string;
  feature?: string;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}

/** Every operation of the document; `auth` undefined means the route declared nothing. */
export function operationsOf(document: unknown): Operation[] {
  return Object.entries((document as OpenApiDoc).paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      auth: op['x-auth'] as string | undefined,
      permission: op['x-permission'] as string | undefined,
      feature: op['x-feature'] as string | undefined,
    })),
  );
}

export const AUTH_SCHEMES = ['public', 'bearer', 'shop-key', 'api-key'];

/** Operations that declare neither public, a session, nor another scheme: each one fails the matrix. */
export const undeclared = (ops: Operation[]) => ops.filter((o) => !o.auth || !AUTH_SCHEMES.includes(o.auth)).map((o) => `${o.method} ${o.path}`);

type Row = Record<string, unknown>;

/**
 * Paths whose id is a row of another listing: the SPEC §7 aliases and the singular /role/{id}.
 * A new path with an id no listing gives makes resolve() throw, naming it.
 */
const LISTING_OF: Record<string, string> = {
  '/t/{ma_dn}/role': '/t/{ma_dn}/roles',
  '/t/{ma_dn}/customers/by-phone': '/t/{ma_dn}/customers',
  '/pbx/partner/incoming': '/pbx/partner/inbound',
  '/pbx/incoming': '/pbx/partner/inbound',
  '/pbx/inbound/john/incoming/detail': '/pbx/partner/inbound',
  // A recording is named by its call-history row (issue 16): `recording.id` below.
  '/t/{ma_dn}/recordings': '/t/{ma_dn}/reports/call-history',
  // So is a voicemail message heard from the call history: `voicemail.id` below.
  '/t/{ma_dn}/reports/voicemail': '/t/{ma_dn}/reports/call-history',
  // A verification of the applications' surface (issue 35) is a row of the tenant's OTP list.
  '/otp/v1/verifications': '/t/{ma_dn}/voice-otp/verifications',
};
/** Path parameters that are a field of the row other than its id (a dotted path for a field of a field). */
const FIELD_OF: Record<string, string> = {
  'GET /pbx/partner/number/{id}': 'number',
  '/t/{ma_dn}/customers/by-phone/{phone}': 'phone',
  '/t/{ma_dn}/recordings/{id}': 'recording.id',
  '/t/{ma_dn}/reports/voicemail/{id}': 'voicemail.id',
};

/** Parameters that name one row; ma_dn names the tenant. */
export const ROW_PARAMS = /\{(?!ma_dn\})[^}]+\}/;
const isRowParam = (segment: string) => /^\{.+\}$/.test(segment) && segment !== '{ma_dn}';

const STRIP = new Set(['id', 'created_at', 'updated_at']);
const bodyOf = (row: Row | undefined): Row | undefined => (row ? Object.fromEntries(Object.entries(row).filter(([k]) => !STRIP.has(k))) : undefined);

const PASSWORD = { password: 'MaTran@2026', password_confirmation: 'MaTran@2026' };
/** Valid bodies that no row of a listing gives: passwords, a role's permissions as names. */
const BODIES: Record<string, (rows: TenantRows) => Promise<Row>> = {
  'PUT /t/{ma_dn}/role/{id}': async () => ({ name: FIXTURE.role, permissions: ['customer.view'] }),
  'PUT /t/{ma_dn}/role/{id}/password': async (rows) => ({ user_id: (await rows.first('/t/{ma_dn}/accounts'))?.id, ...PASSWORD }),
  'PUT /t/{ma_dn}/accounts/{id}/password': async () => PASSWORD,
  'POST /t/{ma_dn}/survey-questions/{id}/move': async () => ({ direction: 'down' }),
  // A draft cannot be paused: the admin's cell is a 409 that writes nothing, another tenant's a 404.
  'POST /t/{ma_dn}/survey-campaigns/{id}/state': async () => ({ to: 'paused' }),
  'POST /t/{ma_dn}/marketing-campaigns/{id}/state': async () => ({ to: 'paused' }),
  // The working screen's writes (slice 3): an answer and a result; the fixture campaigns are drafts, so a permitted caller gets 409.
  'PUT /t/{ma_dn}/survey-campaigns/{id}/contacts/{contactId}/answers': async () => ({ question_id: 1, value: null }),
  'PUT /t/{ma_dn}/marketing-campaigns/{id}/contacts/{contactId}/answers': async () => ({ question_id: 1, value: null }),
  'POST /t/{ma_dn}/survey-campaigns/{id}/contacts/{contactId}/result': async () => ({ result: 'agreed' }),
  'POST /t/{ma_dn}/marketing-campaigns/{id}/contacts/{contactId}/result': async () => ({ result: 'agreed' }),
  // Issue 34: a progressive agent's readiness; the fixture campaigns are drafts, so a permitted caller gets 409.
  'PUT /t/{ma_dn}/survey-campaigns/{id}/ready': async () => ({ ready: false }),
  'PUT /t/{ma_dn}/marketing-campaigns/{id}/ready': async () => ({ ready: false }),
  // The Google Sheet source: a complete body; the tenant has no service account, so a permitted caller gets 422.
  'POST /t/{ma_dn}/survey-campaigns/{id}/contacts/sheet': async (rows) => ({ name: 'Ma trận', sheet_id: 'ma-tran', sheet_name: 'Danh sách', user_id: (await rows.first('/t/{ma_dn}/accounts'))?.id }),
  'POST /t/{ma_dn}/marketing-campaigns/{id}/contacts/sheet': async (rows) => ({ name: 'Ma trận', sheet_id: 'ma-tran', sheet_name: 'Danh sách', user_id: (await rows.first('/t/{ma_dn}/accounts'))?.id }),
  // Issue 35: an application's start and check (another number than the fixture's, so no limit is near).
  'POST /otp/v1/verifications': async () => ({ phone: '0912000909' }),
  'POST /otp/v1/verifications/{id}/check': async () => ({ code: '000000' }),
};

/** Names of the rows createRows() makes; a listing names them before any other row. */
const FIXTURE = { role: 'ma-tran', username: 'matran' };
const isFixture = (row: Row) => row.name === FIXTURE.role || row.username === FIXTURE.username;

/**
 * Rows no listing of the tenant's admin gives, by "<ma_dn> <path>": a CRM's click-to-call (issue 39) is
 * read only through the key that asked for it. Set by createRows.
 */
const FIXED_ROWS = new Map<string, Row[]>();

/** A tenant's rows, read through its own admin: the ids, phone numbers and bodies of its requests. */
export class TenantRows {
  private readonly listings = new Map<string, Row[]>();

  constructor(
    private readonly app: FastifyInstance,
    readonly maDn: string,
    private readonly headers: Record<string, string>,
  ) {}

  private async listing(path: string): Promise<Row[]> {
    const url = path.replace('{ma_dn}', this.maDn);
    if (!this.listings.has(url)) {
      const res = await this.app.inject({ method: 'GET', url, headers: this.headers });
      const data = res.statusCode === 200 ? (res.json() as { data?: unknown }).data : undefined;
      const rows = Array.isArray(data) ? (data as Row[]) : [];
      // The fixture role and account first: the seeded admin and staff make the requests.
      this.listings.set(url, [...rows.filter(isFixture), ...rows.filter((r) => !isFixture(r))]);
    }
    return this.listings.get(url)!;
  }

  /** The first row behind `segments` (…/collection/{id}/sub/{subId} walks into the row's `sub`). */
  private async rowAt(segments: string[]): Promise<Row | undefined> {
    const last = segments.length - 1;
    if (!isRowParam(segments[last])) return undefined;
    if (isRowParam(segments[last - 2] ?? '')) {
      const parent = await this.rowAt(segments.slice(0, last - 1));
      const inRow = (parent?.[segments[last - 1]] as Row[] | undefined)?.[0];
      if (inRow !== undefined || !parent) return inRow;
      // …/{id}/contacts/{contactId}: the first row of that row's own listing (GET …/{id}/contacts).
      return (await this.listing(await this.url({ method: 'GET', path: segments.slice(0, last).join('/') } as Operation)))[0];
    }
    return this.first(segments.slice(0, last).join('/'));
  }

  /** The first row of a listing (or of the listing its alias names). */
  async first(path: string): Promise<Row | undefined> {
    const fixed = FIXED_ROWS.get(`${this.maDn} ${path}`);
    if (fixed) return fixed[0];
    return (await this.listing(LISTING_OF[path] ?? path))[0];
  }

  /** The URL of `op` naming this tenant's rows (and `maDn` as the tenant code). */
  async url(op: Operation, maDn = this.maDn): Promise<string> {
    const segments = op.path.split('/');
    const out: string[] = [];
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i];
      if (s === '{ma_dn}') out.push(maDn);
      else if (!s.startsWith('{')) out.push(s);
      else {
        const template = segments.slice(0, i + 1).join('/');
        const row = await this.rowAt(segments.slice(0, i + 1));
        const field = FIELD_OF[`${op.method} ${template}`] ?? FIELD_OF[template] ?? 'id';
        const value = field.split('.').reduce<unknown>((o, k) => (o as Row | null | undefined)?.[k], row);
        if (value === undefined || value === null) throw new Error(`No ${maDn} fixture for ${s} of ${op.method} ${op.path}: create one in createRows()`);
        out.push(encodeURIComponent(String(value)));
      }
    }
    return out.join('/');
  }

  /** A valid body for a write of `op`: its fixed body, or the row it names (or the first of its listing). */
  async body(op: Operation): Promise<Row | undefined> {
    if (op.method === 'GET' || op.method === 'DELETE') return undefined;
    const key = `${op.method} ${op.path}`;
    if (BODIES[key]) return BODIES[key](this);
    const segments = op.path.split('/');
    if (isRowParam(segments.at(-1)!)) return bodyOf(await this.rowAt(segments));
    // POST …/{id}/ranges: one of the parent's ranges; POST /collection: its first row.
    if (isRowParam(segments.at(-2) ?? '')) return bodyOf(await this.rowAt([...segments, '{sub}']));
    return bodyOf(await this.first(op.path)) ?? {};
  }

  /** Query parameters an operation needs to name rows (bulk delete by ids). */
  async query(op: Operation): Promise<Record<string, string>> {
    if (op.path === '/pbx/partner/subscriber/delete/all') {
      return { ids: (await this.listing('/t/{ma_dn}/subscribers')).map((r) => String(r.id)).join(',') };
    }
    return {};
  }
}

/**
 * The rows the seed does not have, created through the API as the tenant's admin, so that every
 * path with an id has a real row to name: the PBX objects, and a role and an account that none
 * of the requesting users holds or is.
 */
export async function createRows(app: FastifyInstance, maDn: string, headers: Record<string, string>): Promise<void> {
  const send = async (options: InjectOptions) => {
    const res = await app.inject({ ...options, headers: { ...headers, ...options.headers } });
    if (res.statusCode !== 201) throw new Error(`fixture ${options.url}: ${res.statusCode} ${res.body}`);
    return (res.json() as { data: Row }).data;
  };
  const post = (url: string, payload: Row) => send({ method: 'POST', url: `/pbx/partner/${url}`, payload });
  const upload = (url: string, fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) => {
    const body = multipart(fields, file);
    return send({ method: 'POST', url: `/pbx/partner/${url}`, headers: body.headers, payload: body.payload });
  };
  const direct = (target: string) => ({ type: 'direct', target });
  const role = await send({ method: 'POST', url: `/t/${maDn}/role`, payload: { name: FIXTURE.role, permissions: ['customer.view'] } });
  const account = await send({
    method: 'POST',
    url: `/t/${maDn}/accounts`,
    payload: { full_name: 'Ma trận', username: FIXTURE.username, role_id: role.id, status: 'active', ...PASSWORD },
  });
  await send({
    method: 'POST',
    url: `/t/${maDn}/kpis`,
    payload: { name: 'KPI ma trận', measure: 'calls_made', target: 5, period: 'day', start_date: vnDay(new Date()), assignee: { type: 'user', id: account.id } },
  });
  const greeting = await upload('greeting', { name: 'Lời chào ma trận' }, { name: 'a.wav', type: 'audio/wav', bytes: wav(1) });
  await upload('moh', { name: 'Nhạc chờ ma trận', moh_class: 'ma-tran' }, { name: 'n.mp3', type: 'audio/mpeg', bytes: mp3(100, true) });
  await post('message', { name: 'Thông báo ma trận', greeting_id: greeting.id });
  await post('queues', { name: 'Hàng đợi ma trận', agents: ['101'] });
  const ringGroup = await post('group-inbounds', { name: 'Nhóm ma trận', extensions: ['101'] });
  const numbers = await app.inject({ method: 'GET', url: '/pbx/partner/number', headers });
  const did = (numbers.json() as { data: Row[] }).data[0].number;
  await post('inbound', { did, caller_pattern: '09X.', destination: { type: 'group', target: ringGroup.id } });
  await post('ivr_detail', { name: 'IVR ma trận', entries: [{ digit: '1', destination: direct('101') }] });
  const group = await post('time-group', { name: 'Giờ ma trận', ranges: [{ time_start: '08:00', time_end: '17:00' }] });
  await post('time-condition', { name: 'Điều kiện ma trận', time_group_id: group.id, matched_destination: direct('101'), unmatched_destination: direct('101') });
  // Issue 39: an override of the tenant's public holidays (…/holiday-overrides/{id} names it).
  await post('holiday-overrides', { date: '2027-02-10', action: 'add', name: 'Nghỉ bù ma trận' });
  await post('last-calls', { name: 'Gọi lại ma trận', fallback_destination: direct('101') });
  // Issue 15: a switchboard, a hotline through it (a number of the tenant's own), a rule through it.
  const switchboard = await send({
    method: 'POST', url: `/t/${maDn}/${TELECOM_API.switchboards}`,
    payload: { name: 'Tổng đài ma trận', carrier: 'vnpt', host: '192.0.2.10', auth_user: `mt_${maDn}`, auth_password: 'MaTran-Trunk-1' },
  });
  await send({
    method: 'POST', url: `/t/${maDn}/${TELECOM_API.hotlines}`,
    payload: { number: maDn === 'demo' ? '02873009901' : '02473009901', switchboard_id: switchboard.id, destination: direct('101') },
  });
  await post('rule', { name: 'Quy tắc ma trận', pattern: '09XXXXXXXX', switchboard_ids: [switchboard.id] });
  // Issue 33: a survey category with a question of each list (…/{id} and …/{id}/move name them).
  const surveyCategory = await send({ method: 'POST', url: `/t/${maDn}/${SURVEY_API.categories}`, payload: { name: 'Khảo sát ma trận' } });
  await send({
    method: 'POST', url: `/t/${maDn}/${SURVEY_API.questions}`,
    payload: { category_id: surveyCategory.id, kind: 'single', text: 'Câu hỏi ma trận', options: ['Có', 'Không'] },
  });
  // Issue 33: a survey and a marketing campaign with a contact each (…/{id}, its contacts, state, progress).
  const options = (await app.inject({ url: `/t/${maDn}/${campaignApi('survey').options}`, headers })).json().data as { hotlines: Row[]; agents: Row[]; questions: Row[] };
  for (const family of ['survey', 'marketing'] as const) {
    const api = campaignApi(family);
    const campaign = await send({
      method: 'POST', url: `/t/${maDn}/${api.base}`,
      payload: { name: `Chiến dịch ma trận ${family}`, question_ids: [options.questions[0].id], script: 'Chào {{name}}', agent_ids: [options.agents[0].id], hotline_id: options.hotlines[0].id },
    });
    const csv = multipart({ commit: 'true' }, { name: 'a.csv', type: 'text/csv', bytes: Buffer.from('ten,sdt\nMa trận,0911000333\n') });
    const imported = await app.inject({ method: 'POST', url: `/t/${maDn}/${api.importFile(campaign.id as number)}`, headers: { ...headers, ...csv.headers }, payload: csv.payload });
    if (imported.statusCode !== 200 || imported.json().data.imported !== 1) throw new Error(`fixture contacts: ${imported.body}`);
  }
  // Issue 35: the hotline enabled for OTP, an API key, and a verification it started.
  const otpNumber = ((await app.inject({ url: `/t/${maDn}/voice-otp/numbers`, headers })).json() as { data: Row[] }).data[0];
  const enabled = await app.inject({ method: 'PUT', url: `/t/${maDn}/voice-otp/numbers/${otpNumber.id}`, headers, payload: { otp_enabled: true } });
  if (enabled.statusCode !== 200) throw new Error(`fixture OTP number: ${enabled.body}`);
  const otpKey = await send({ method: 'POST', url: `/t/${maDn}/voice-otp/keys`, payload: { name: 'Khoá ma trận' } });
  const otpStart = await app.inject({ method: 'POST', url: '/otp/v1/verifications', headers: { authorization: `Bearer ${otpKey.secret}` }, payload: { phone: '0912000808' } });
  if (otpStart.statusCode !== 201) throw new Error(`fixture OTP verification: ${otpStart.body}`);
  // Issue 39: a click-to-call that key asked for (a row: placing it needs a registered phone and a call plane).
  const crmCall = await app.deps.db.withSystem(async (tx) =>
    (await tx.query<Row>(
      "insert into crm_calls (tenant_id, key_id, agent, phone, status, cause) select id, $2, '101', '84912000707', 'failed', 'lost' from tenants where ma_dn = $1 returning id",
      [maDn, otpKey.id],
    )).rows[0]);
  FIXED_ROWS.set(`${maDn} /crm/v1/calls`, [crmCall]);
  // Issue 39: a CRM's key (its revoke, new signing secret and delivery log).
  await send({ method: 'POST', url: `/t/${maDn}/integrations/keys`, payload: { name: 'CRM ma trận', scopes: ['calls.events'] } });
  await post('blocked-in', { number: '0911000111' });
  await post('blocked-out', { number: '0911000222' });
  // Issue 33: a number on the tenant's do-not-call list (DELETE dnc-numbers/{id}).
  await send({ method: 'POST', url: `/t/${maDn}/dnc-numbers`, payload: { number: '0911000444', note: 'Ma trận' } });
  await send({ method: 'POST', url: `/t/${maDn}/consents`, payload: { number: '0911000555', source: 'Ma trận', agreed_on: vnDay(new Date()), lifts_cap: true } });
  // A call record of today (calls are written by the call path, not by a request): the call history's rows.
  const db = app.deps.db;
  const tenantId = await db.withSystem(async (tx) => (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id);
  const writer = new CdrWriter(db, { onError: (err) => { throw err; } });
  const ended = new Date();
  const started = new Date(ended.getTime() - 40_000);
  writer.add({
    tenant_id: tenantId, call_id: `ma-tran-${maDn}`, caller: '0912000333', callee: '101', did: null, direction: 'inbound', route: [],
    ring_group_id: null, queue_id: null, extension: '101', trunk: null, started_at: started, answered_at: new Date(started.getTime() + 5_000), ended_at: ended,
    duration: 40, billsec: 35, disposition: 'ANSWERED', sip_code: 200, reason: '',
  });
  await writer.flush();
  // Issue 16: that call's recording (its row: the file is not needed to answer who may ask for it).
  await db.withSystem((tx) =>
    tx.query(
      `insert into call_recordings (tenant_id, call_id, started_at, duration_seconds, size_bytes, storage, storage_key) values ($1, $2, $3, 35, 1, 'local', $4)`,
      [tenantId, `ma-tran-${maDn}`, new Date(started.getTime() + 5_000), `${tenantId}/2026-01-01/ma-tran-ma-tran-ma-tran.mp3`],
    ),
  );
  // Issue 16: a voicemail message in the admin's own mailbox (101), as the media worker leaves one,
  // on that call (so its call-history row names it too).
  await db.withSystem((tx) =>
    tx.query(
      `insert into voicemail_messages (tenant_id, mailbox, caller, call_id, duration_seconds, mime, bytes) values ($1, '101', '0912000444', $2, 1, 'audio/wav', $3)`,
      [tenantId, `ma-tran-${maDn}`, wav(1)],
    ),
  );
}

/**
 * A digest of every row a tenant owns, per table (sessions and an API key's last use excepted:
 * writing them is what a request does). Equal digests before and after = the requests changed nothing of the tenant.
 */
export async function tenantDigest(db: Db, maDn: string): Promise<Record<string, string>> {
  return db.withSystem(async (tx) => {
    const tenant = (await tx.query<{ id: number }>('select id from tenants where ma_dn = $1', [maDn])).rows[0].id;
    const { rows: tables } = await tx.query<{ table_name: string }>(
      `select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
       where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE' and c.table_name <> 'sessions'
       order by 1`,
    );
    const out: Record<string, string> = {};
    for (const { table_name } of tables) {
      const { rows } = await tx.query<{ h: string }>(
        `select md5(coalesce(string_agg((to_jsonb(t) - 'last_used_at')::text, '|' order by (to_jsonb(t) - 'last_used_at')::text), '')) as h from ${table_name} t where tenant_id = $1`,
        [tenant],
      );
      out[table_name] = rows[0].h;
    }
    const { rows } = await tx.query<{ h: string }>('select md5(t::text) as h from tenants t where id = $1', [tenant]);
    out.tenants = rows[0].h;
    return out;
  });
}
