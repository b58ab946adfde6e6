import { formatIp, judge, parseCidr, parseIp, parseNetworks, parsePorts, type HostPolicySettings } from './host-policy';

const settings = (o: Partial<{ allowed: string; own: string; ports: string }> = {}): HostPolicySettings => ({
  allowedNetworks: parseNetworks(o.allowed),
  ownAddresses: parseNetworks(o.own).map((c) => c.ip),
  servicePorts: parsePorts(o.ports ?? '4000,4001,6379,5432,4089,4090,4091'),
});
const verdict = (host: string, port = 5060, s = settings()) => {
  const ip = parseIp(host);
  if (!ip) throw new Error(`${host} is no address`);
  const v = judge(ip, port, s);
  return v.ok ? 'ok' : v.rule;
};

describe('parsing addresses as resolvers read them', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0x7F.0.0.01', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['169.254.43518', '169.254.169.254'],
    ['2852039166', '169.254.169.254'],
    ['0', '0.0.0.0'],
    ['0x', '0.0.0.0'],
    ['[::1]', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
  ])('%s is %s', (text, canonical) => {
    expect(formatIp(parseIp(text)!)).toBe(canonical);
  });

  it.each(['sip.viettel.vn', '08.0.0.1', '1.2.3.4.5', '256.0.0.1.', ':::1', '1::2::3', '[::1', 'abc', '127.0.0.1.evil.example'])('%s is no address (a name, or nothing)', (text) => {
    expect(parseIp(text)).toBeNull();
  });

  it('reads networks and port ranges, and names a bad entry of the setting', () => {
    expect(parseCidr('10.20.0.0/16')).toMatchObject({ bits: 16 });
    expect(parseCidr('127.0.0.1')).toMatchObject({ bits: 32 });
    expect(parseCidr('fd00::/8')).toMatchObject({ bits: 8 });
    expect(parsePorts('4091, 30000-30099')).toEqual([[4091, 4091], [30000, 30099]]);
    expect(() => parseNetworks('10.0.0.0/8,not-a-network')).toThrow('"not-a-network"');
    expect(() => parseNetworks('10.0.0.0/33')).toThrow('10.0.0.0/33');
    expect(() => parsePorts('70000')).toThrow('"70000"');
  });
});

describe('the switchboard host policy (issue 32)', () => {
  it.each([
    // The table, and what is near it.
    ['127.0.0.1', 4001, 'service-port'],
    ['127.0.0.1', 6379, 'service-port'],
    ['127.0.0.1', 4091, 'service-port'],
    ['169.254.169.254', 80, 'link-local'],
    ['127.0.0.1', 5060, 'loopback'],
    ['127.53.1.1', 5060, 'loopback'],
    ['2130706433', 5060, 'loopback'],
    ['0177.0.0.1', 5060, 'loopback'],
    ['0x7f000001', 5060, 'loopback'],
    ['0.0.0.0', 5060, 'unspecified'],
    ['0', 5060, 'unspecified'],
    ['[::]', 5060, 'unspecified'],
    ['[::1]', 5060, 'loopback'],
    ['::ffff:127.0.0.1', 5060, 'loopback'],
    ['::ffff:169.254.169.254', 5060, 'link-local'],
    ['::127.0.0.1', 5060, 'loopback'],
    ['64:ff9b::a9fe:a9fe', 5060, 'link-local'],
    ['2002:7f00:1::', 5060, 'loopback'],
    ['fe80::1', 5060, 'link-local'],
    ['224.0.0.1', 5060, 'multicast'],
    ['ff02::1', 5060, 'multicast'],
    ['255.255.255.255', 5060, 'broadcast'],
    ['240.0.0.1', 5060, 'reserved'],
    ['10.1.2.3', 5060, 'private'],
    ['172.16.0.9', 5060, 'private'],
    ['172.31.255.255', 5060, 'private'],
    ['192.168.1.1', 5060, 'private'],
    ['100.64.0.1', 5060, 'private'],
    ['fd12::1', 5060, 'private'],
    // A public carrier on any port of its own, but never a port of ours.
    ['203.113.131.5', 5060, 'ok'],
    ['172.32.0.1', 5060, 'ok'],
    ['100.128.0.1', 5060, 'ok'],
    ['2001:4860::8888', 5060, 'ok'],
    ['203.113.131.5', 6379, 'service-port'],
    ['203.113.131.5', 5432, 'service-port'],
  ])('%s:%d → %s', (host, port, expected) => {
    expect(verdict(host, port)).toBe(expected);
  });

  it("opens private ranges and loopback only where the operator lists them, never the PBX's own ports nor link-local", () => {
    const s = settings({ allowed: '10.20.0.0/16, 127.0.0.1/32, 169.254.0.0/16' });
    expect(verdict('10.20.5.6', 5060, s)).toBe('ok');
    expect(verdict('10.21.0.1', 5060, s)).toBe('private');
    expect(verdict('127.0.0.1', 5094, s)).toBe('ok');
    expect(verdict('2130706433', 5094, s)).toBe('ok');
    expect(verdict('127.0.0.2', 5094, s)).toBe('loopback');
    expect(verdict('127.0.0.1', 4001, s)).toBe('service-port');
    expect(verdict('169.254.169.254', 5060, s)).toBe('link-local');
    expect(verdict('[::1]', 5060, s)).toBe('loopback');
  });

  it("refuses the PBX's own addresses (public ones too) unless listed, in any spelling", () => {
    const s = settings({ own: '203.0.113.7' });
    expect(verdict('203.0.113.7', 5060, s)).toBe('own-address');
    expect(verdict('3405803783', 5060, s)).toBe('own-address');
    expect(verdict('::ffff:203.0.113.7', 5060, s)).toBe('own-address');
    expect(verdict('203.0.113.8', 5060, s)).toBe('ok');
    expect(verdict('203.0.113.7', 5060, settings({ own: '203.0.113.7', allowed: '203.0.113.0/24' }))).toBe('ok');
  });
});
