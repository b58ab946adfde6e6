import { settingsFromEnv, SwitchboardHosts } from './switchboard-hosts';

const ports = (env: NodeJS.ProcessEnv) => settingsFromEnv(env).servicePorts.map(([from, to]) => (from === to ? from : `${from}-${to}`));

describe("the operator's settings (ADR 0043)", () => {
  it("adds the ports the API knows of its own services to PBX_SERVICE_PORTS; Kamailio's 5060 is every carrier's too", () => {
    expect(ports({ PORT: '4100', KAMAILIO_EVAPI: '127.0.0.1:4187', SIP_WS_URL: 'ws://127.0.0.1:4188', KAMAILIO_SIP: '127.0.0.1:4189', PBX_SERVICE_PORTS: '4190,4191,30000-30099' })).toEqual(
      [4100, 4101, 4187, 4188, 4189, 6379, 5432, 4190, 4191, '30000-30099'],
    );
    expect(ports({ PORT: '4000', INTERNAL_PORT: '4501', KAMAILIO_SIP: 'kamailio:5060', REDIS_URL: 'redis://:s3cr:et@redis:6380/0', DATABASE_URL: 'postgres://u:p@db:5433/tongdai' })).toEqual(
      [4000, 4501, 6380, 5433, 6379, 5432],
    );
  });

  it('refuses a setting it cannot read, naming the entry (at start, not at the first call)', () => {
    expect(() => settingsFromEnv({ TRUNK_ALLOWED_NETWORKS: '10.0.0.0/8 lan' })).toThrow('TRUNK_ALLOWED_NETWORKS: "lan"');
    expect(() => settingsFromEnv({ PBX_SERVICE_PORTS: '5070-5060' })).toThrow('PBX_SERVICE_PORTS: "5070-5060"');
  });
});

describe('a host checked with a resolver', () => {
  const hosts = new SwitchboardHosts(settingsFromEnv({ TRUNK_ALLOWED_NETWORKS: '10.20.0.0/16' }), async (name) =>
    ({ 'public.example': ['203.113.131.5', '2001:4860::1'], 'lan.example': ['10.20.0.9'], 'sneaky.example': ['203.113.131.5', '::ffff:127.0.0.1'] })[name] ?? [],
  );

  it('stores an IP literal canonical and sends to it; a name keeps its spelling and sends to its IPv4 answers', async () => {
    expect(await hosts.check('0xCB718305', 5060)).toEqual({ ok: true, host: '203.113.131.5', addresses: ['203.113.131.5'] });
    expect(await hosts.check('public.example', 5060)).toEqual({ ok: true, host: 'public.example', addresses: ['203.113.131.5'] });
    expect(await hosts.check('lan.example', 5060)).toEqual({ ok: true, host: 'lan.example', addresses: ['10.20.0.9'] });
    expect(await hosts.check('nothing.example', 5060)).toEqual({ ok: true, host: 'nothing.example', addresses: [] });
  });

  it('refuses a name with one refused answer, a port of ours whatever the name answers, a literal in any spelling', async () => {
    expect(await hosts.check('sneaky.example', 5060)).toEqual({ ok: false, host: 'sneaky.example', rule: 'loopback', address: '::ffff:7f00:1' });
    expect(await hosts.check('nothing.example', 6379)).toMatchObject({ ok: false, rule: 'service-port' });
    expect(await hosts.check('0177.0.0.1', 5060)).toEqual({ ok: false, host: '127.0.0.1', rule: 'loopback', address: '127.0.0.1' });
    expect(hosts.malformed('1::2::3')).toBe(true);
    expect(hosts.malformed('[::1]')).toBe(false);
    expect(hosts.malformed('sip.viettel.vn')).toBe(false);
  });
});
