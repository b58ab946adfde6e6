import { TELECOM_API, TELECOM_MSG } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import { INTERNAL_HEADERS, demoHeaders, startTestApp, type TestApp } from '../../../test/helpers';
import { buildInternalServer } from '../sip/internal-server';
import { settingsFromEnv, SwitchboardHosts, type HostResolver } from './switchboard-hosts';

/**
 * Issue 32 on the real database and the real call path: a switchboard may not point the PBX at its
 * own internals. The table, every spelling of loopback, IPv6 forms and a DNS name answering
 * 127.0.0.1 are refused with 422 SWITCHBOARD_HOST_REFUSED and nothing saved; public carriers and the
 * operator's private networks are accepted; a name whose answer changes after the save blocks its
 * switchboard at the next use (status, audit line, absent from Kamailio's registrations, the plans
 * and the carrier match) and unblocks it when it answers well again.
 */
const DNS = new Map<string, string[]>();
/** The resolver adapter of this test: a zone the test edits (the API resolves through it, as through DNS). */
const zone: HostResolver = async (name) => DNS.get(name.toLowerCase()) ?? [];
// What a stack gives the API: its ports (PORT, INTERNAL_PORT, the media worker and rtpengine by
// PBX_SERVICE_PORTS) and the operator's leased-line network.
const hosts = new SwitchboardHosts(settingsFromEnv({ PORT: '4000', PBX_SERVICE_PORTS: '4090,4091', TRUNK_ALLOWED_NETWORKS: '10.20.0.0/16' }), zone);

let t: TestApp;
let internal: FastifyInstance;
let admin: Record<string, string>;
let tenantId: number;

beforeAll(async () => {
  t = await startTestApp({ switchboardHosts: hosts });
  internal = buildInternalServer(t.db, { calls: { switchboardHosts: hosts, switchboardsTtlMs: 0, switchboardsDnsTtlMs: 0 } });
  admin = (await demoHeaders(t.app)).admin;
  tenantId = await t.db.withSystem(async (tx) => (await tx.query<{ id: number }>("select id from tenants where ma_dn = 'demo'")).rows[0].id);
});
afterAll(async () => {
  await internal?.close();
  await t?.close();
});

const url = `/t/demo/${TELECOM_API.switchboards}`;
const board = (host: string, port = 5060, more: Record<string, unknown> = {}) => ({ name: `Tổng đài ${host}:${port}`, carrier: 'other', host, port, register: false, ...more });
/** The table's row count and latest change: a refused save leaves both as they were. */
const rows = () => t.db.withSystem(async (tx) => (await tx.query<{ n: string; u: string | null }>('select count(*)::text as n, max(updated_at)::text as u from telecom_switchboards')).rows[0]);
const audit = (id: number) =>
  t.db.withSystem(async (tx) => (await tx.query<{ action: string; host: string; address: string; rule: string }>('select action, host, address, rule from telecom_switchboard_audit where switchboard_id = $1 order by id', [id])).rows);
const statusOf = async (id: number) => (await t.app.inject({ method: 'GET', url: `/t/demo/${TELECOM_API.switchboard(id)}`, headers: admin })).json().data;
const kamailioView = async () => (await internal.inject({ url: '/internal/sip/switchboards', headers: INTERNAL_HEADERS })).json();

/** Asks a save and expects the refusal: 422, the stable code, the Vietnamese message under its field, the rule, nothing written. */
async function refused(payload: Record<string, unknown>, rule: string, method: 'POST' | 'PUT' = 'POST', at = url) {
  const before = await rows();
  const res = await t.app.inject({ method, url: at, headers: admin, payload });
  expect([res.statusCode, res.json()]).toEqual([
    422,
    {
      status: 422,
      code: 'SWITCHBOARD_HOST_REFUSED',
      message: 'Địa chỉ nội bộ của hệ thống không được dùng làm tổng đài',
      details: [{ field: rule === 'service-port' ? 'port' : 'host', message: TELECOM_MSG.internalHost, rule }],
    },
  ]);
  expect(await rows()).toEqual(before);
}

describe('a switchboard pointed at the PBX itself is refused on save (422, nothing saved)', () => {
  it.each([
    // The table.
    ['127.0.0.1', 4001, 'udp', 'service-port'],
    ['127.0.0.1', 6379, 'tcp', 'service-port'],
    ['127.0.0.1', 4091, 'udp', 'service-port'],
    ['169.254.169.254', 80, 'udp', 'link-local'],
    // Loopback on a port of nothing of ours, in every spelling a resolver reads.
    ['127.0.0.1', 5060, 'udp', 'loopback'],
    ['2130706433', 5060, 'udp', 'loopback'],
    ['0177.0.0.1', 5060, 'udp', 'loopback'],
    ['0x7f000001', 5060, 'tcp', 'loopback'],
    ['127.1', 5060, 'udp', 'loopback'],
    // IPv6 forms.
    ['[::1]', 5060, 'udp', 'loopback'],
    ['::1', 5060, 'udp', 'loopback'],
    ['::ffff:127.0.0.1', 5060, 'udp', 'loopback'],
    ['[::ffff:169.254.169.254]', 5060, 'udp', 'link-local'],
    ['fe80::1', 5060, 'udp', 'link-local'],
    // The rest of the rule.
    ['0.0.0.0', 5060, 'udp', 'unspecified'],
    ['224.0.0.1', 5060, 'udp', 'multicast'],
    ['255.255.255.255', 5060, 'udp', 'broadcast'],
    ['192.168.1.10', 5060, 'udp', 'private'],
    ['10.30.0.1', 5060, 'udp', 'private'],
    // A port of ours on a public address: PostgreSQL, Redis.
    ['203.113.131.5', 5432, 'tcp', 'service-port'],
    ['203.113.131.5', 6379, 'tcp', 'service-port'],
  ])('%s:%d (%s) → %s', async (host, port, transport, rule) => {
    await refused(board(host, port, { transport }), rule);
  });

  it('refuses a DNS name that answers with an internal address (even one answer among public ones)', async () => {
    DNS.set('sip.loopback.example', ['127.0.0.1']);
    DNS.set('sip.mixed.example', ['203.113.131.9', '169.254.169.254']);
    await refused(board('sip.loopback.example'), 'loopback');
    await refused(board('sip.mixed.example'), 'link-local');
    // A name that answers nothing (yet) is still refused on a port of ours.
    await refused(board('sip.nothing-yet.example', 6379, { transport: 'tcp' }), 'service-port');
  });

  it('refuses an edit that points an existing switchboard inside, and keeps the row as it was', async () => {
    const created = await t.app.inject({ method: 'POST', url, headers: admin, payload: board('203.113.131.7') });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    await refused(board('0x7f000001'), 'loopback', 'PUT', `/t/demo/${TELECOM_API.switchboard(id)}`);
    expect((await statusOf(id)).host).toBe('203.113.131.7');
  });

  it('answers a text shaped like IPv6 that is no address as an invalid host (400), not a name', async () => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin, payload: board('1::2::3') });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'host', message: TELECOM_MSG.host }]);
  });
});

describe('allowed hosts still work', () => {
  it("saves a public carrier, a name answering one, and a private address of the operator's networks; an IP in another spelling is stored canonical", async () => {
    DNS.set('sip.carrier.example', ['203.113.131.20']);
    for (const [host, stored] of [['203.113.131.10', '203.113.131.10'], ['sip.carrier.example', 'sip.carrier.example'], ['10.20.30.40', '10.20.30.40'], ['0xCB718315', '203.113.131.21']]) {
      const res = await t.app.inject({ method: 'POST', url, headers: admin, payload: board(host) });
      expect([host, res.statusCode, res.json().data?.host, res.json().data?.status]).toEqual([host, 201, stored, 'ip']);
    }
  });
});

describe('a name whose answer changes after the save', () => {
  it("is judged again at every use: blocked (status, audit line), sent nothing, matched by nothing; unblocked when it answers well again", async () => {
    DNS.set('sip.rebind.example', ['203.113.131.30']);
    const saved = await t.app.inject({
      method: 'POST', url, headers: admin,
      payload: board('sip.rebind.example', 5070, { name: 'Đổi địa chỉ', register: true, auth_user: 'rebind', auth_password: 'Rebind-Secret-1' }),
    });
    expect(saved.statusCode).toBe(201);
    const id: number = saved.json().data.id;
    const rule = await t.app.inject({ method: 'POST', url: '/pbx/partner/rule', headers: admin, payload: { name: 'Qua tổng đài đổi địa chỉ', pattern: '09XXXXXXXX', switchboard_ids: [id] } });
    expect(rule.statusCode).toBe(201);
    const plan = async (n: number) =>
      (await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=rebind-${n}&source=ext&from=101&from_domain=demo.tongdai.local&to=0912345678` })).json();
    const inbound = async (n: number, src: string) =>
      (await internal.inject({ headers: INTERNAL_HEADERS, url: `/internal/sip/route?call_id=rebind-in-${n}&source=trunk&from=0901000001&from_domain=carrier.example&to=02873000001&src=${src}` })).json();

    // While it answers a public address: registered at that address, planned through it, matched from it.
    let view = await kamailioView();
    const reg = view.registrations.find((r: { uuid: string }) => r.uuid === `tdsb${id}`);
    expect(JSON.parse(reg.add).params[9]).toBe('sip:203.113.131.30:5070;transport=udp');
    expect(view.carriers).toContain('203.113.131.30');
    expect((await plan(1)).steps[0]).toMatchObject({ do: 'forward', sb: id, uri: 'sip:0912345678@sip.rebind.example:5070', dst: 'sip:203.113.131.30:5070' });
    expect((await inbound(1, '203.113.131.30:5070')).steps[0].cause).not.toBe('unknown_carrier');

    // The name now answers loopback.
    DNS.set('sip.rebind.example', ['127.0.0.1']);
    view = await kamailioView();
    expect(view.registrations.map((r: { uuid: string }) => r.uuid)).not.toContain(`tdsb${id}`);
    expect(view.carriers).not.toContain('127.0.0.1');
    expect(JSON.stringify(view)).not.toContain('sip.rebind.example');
    const out = await plan(2);
    expect(JSON.stringify(out)).not.toContain('sip.rebind.example');
    expect(out.steps[0]).toMatchObject({ do: 'reject', code: 503, cause: 'trunk_not_configured' });
    expect(await inbound(2, '127.0.0.1:5070')).toMatchObject({ steps: [{ do: 'reject', code: 403, cause: 'unknown_carrier' }] });
    expect(await statusOf(id)).toMatchObject({ status: 'blocked', status_reason: TELECOM_MSG.internalHost });
    // One audit line, however many uses saw it.
    await kamailioView();
    expect(await audit(id)).toEqual([{ action: 'blocked', host: 'sip.rebind.example', address: '127.0.0.1', rule: 'loopback' }]);
    // A registration outcome Kamailio reported late does not hide the block.
    await internal.inject({ method: 'POST', url: '/internal/sip/switchboards/status', headers: INTERNAL_HEADERS, payload: { uuid: `tdsb${id}`, status: 'registered' } });
    expect((await statusOf(id)).status).toBe('blocked');

    // Back on a public address: usable again, the status restarts.
    DNS.set('sip.rebind.example', ['203.113.131.31']);
    view = await kamailioView();
    expect(view.registrations.map((r: { uuid: string }) => r.uuid)).toContain(`tdsb${id}`);
    expect((await statusOf(id)).status).toBe('pending');
    expect((await audit(id)).map((a) => a.action)).toEqual(['blocked', 'unblocked']);
  });

  it('a row written around the API (loopback, no operator list) is never handed to Kamailio', async () => {
    const id = await t.db.withTenant(tenantId, async (tx) =>
      (await tx.query<{ id: number }>("insert into telecom_switchboards (tenant_id, name, host, port, register, auth_user, auth_password_sealed, status) values ($1, 'Ngoài API', '127.0.0.1', 5080, false, '', '', 'ip') returning id", [tenantId])).rows[0].id,
    );
    const view = await kamailioView();
    expect(view.carriers).not.toContain('127.0.0.1');
    expect(await statusOf(id)).toMatchObject({ status: 'blocked' });
    expect(await audit(id)).toEqual([{ action: 'blocked', host: '127.0.0.1', address: '127.0.0.1', rule: 'loopback' }]);
  });
});
