import type { SwitchboardHostRule } from '@tongdai/contracts';

/**
 * Where a tenant's switchboard may point the PBX (issue 32, ADR 0043): one pure decision, used when
 * a switchboard is saved and every time its host is resolved for a REGISTER, an outbound INVITE or
 * an inbound carrier match. Addresses are parsed the way resolvers read them (inet_aton: 2130706433,
 * 0177.0.0.1, 0x7f000001 are all 127.0.0.1; IPv6 with brackets, zone ids, embedded IPv4), so no
 * spelling slips past.
 *
 * Order: a port of the PBX's own services is refused on any address; unspecified, link-local,
 * multicast, broadcast and reserved addresses are refused always; then the operator's networks
 * (TRUNK_ALLOWED_NETWORKS) are allowed; then loopback, private ranges and the PBX's own addresses
 * are refused. So loopback and leased-line private trunks open only where an operator lists them.
 */

export type Ip = { v: 4; n: number } | { v: 6; n: bigint };
export interface Cidr {
  ip: Ip;
  bits: number;
}
export interface HostPolicySettings {
  /** Networks tenants may use although private, loopback or the PBX's own (operator setting). */
  allowedNetworks: readonly Cidr[];
  /** The PBX's own addresses (its interfaces, its public address). */
  ownAddresses: readonly Ip[];
  /** Ports of the PBX's own services, [from, to] inclusive: refused whatever the address. */
  servicePorts: readonly (readonly [number, number])[];
}
export type Verdict = { ok: true } | { ok: false; rule: SwitchboardHostRule };

// --- Parsing ----------------------------------------------------------------------------------

/** One inet_aton part: decimal, octal (leading 0) or hex (0x). */
function part(s: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(s)) return s.length > 2 ? parseInt(s.slice(2), 16) : 0;
  if (/^0[0-7]*$/.test(s)) return parseInt(s, 8);
  if (/^[1-9]\d*$/.test(s)) return Number(s);
  return null;
}

/** IPv4 in every spelling inet_aton accepts (1 to 4 parts; the last fills the remaining bytes). */
export function parseIpv4(s: string): number | null {
  if (!s || s.length > 64) return null;
  const parts = s.split('.');
  if (parts.length > 4 || (parts.length > 1 && parts[parts.length - 1] === '')) return null;
  const nums = parts.map(part);
  if (nums.some((n) => n === null || !Number.isFinite(n))) return null;
  const ns = nums as number[];
  const last = ns[ns.length - 1];
  const head = ns.slice(0, -1);
  if (head.some((n) => n > 255) || last >= 2 ** (8 * (4 - head.length))) return null;
  return head.reduce((acc, n, i) => acc + n * 2 ** (8 * (3 - i)), 0) + last;
}

/** IPv6 text (brackets and a zone id allowed, a dotted IPv4 tail too). */
export function parseIpv6(s: string): bigint | null {
  let t = s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s;
  t = t.replace(/%[^%]*$/, '');
  if (!t.includes(':') || t.length > 64 || !/^[0-9a-f:.]+$/i.test(t)) return null;
  const words: number[] = [];
  const tail = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (tail) {
    if (!/^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(tail[1])) return null;
    const v4 = parseIpv4(tail[1])!;
    t = `${t.slice(0, t.length - tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = t.split('::');
  if (halves.length > 2) return null;
  const group = (x: string) => (x === '' ? [] : x.split(':'));
  const [a, b] = [group(halves[0]), halves.length === 2 ? group(halves[1]) : []];
  if ([...a, ...b].some((w) => !/^[0-9a-f]{1,4}$/i.test(w))) return null;
  const fill = 8 - a.length - b.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  words.push(...a.map((w) => parseInt(w, 16)), ...Array<number>(fill).fill(0), ...b.map((w) => parseInt(w, 16)));
  return words.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n);
}

/** An IP literal in any spelling, or null for a name. */
export function parseIp(host: string): Ip | null {
  const h = host.trim();
  const v4 = parseIpv4(h);
  if (v4 !== null) return { v: 4, n: v4 };
  const v6 = parseIpv6(h);
  return v6 === null ? null : { v: 6, n: v6 };
}

/** The canonical text: dotted quad, or RFC 5952 IPv6 (no brackets). */
export function formatIp(ip: Ip): string {
  if (ip.v === 4) return [24, 16, 8, 0].map((s) => Math.floor(ip.n / 2 ** s) % 256).join('.');
  const words = Array.from({ length: 8 }, (_, i) => Number((ip.n >> BigInt(16 * (7 - i))) & 0xffffn));
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

/** "10.0.0.0/8", "127.0.0.1" (a /32), "fd00::/8"; null when not one. */
export function parseCidr(s: string): Cidr | null {
  const [addr, len, extra] = s.trim().split('/');
  if (extra !== undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const max = ip.v === 4 ? 32 : 128;
  const bits = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  return Number.isInteger(bits) && bits >= 0 && bits <= max ? { ip, bits } : null;
}

// --- Deciding ---------------------------------------------------------------------------------

const cidr = (s: string): Cidr => parseCidr(s)!;
export function inCidr(ip: Ip, c: Cidr): boolean {
  if (ip.v !== c.ip.v) return false;
  if (ip.v === 4) {
    const shift = 2 ** (32 - c.bits);
    return Math.floor(ip.n / shift) === Math.floor((c.ip.n as number) / shift);
  }
  const shift = BigInt(128 - c.bits);
  return ip.n >> shift === (c.ip.n as bigint) >> shift;
}
const sameIp = (a: Ip, b: Ip) => a.v === b.v && a.n === b.n;

/** Never a carrier, whatever the operator lists. */
const ALWAYS: [SwitchboardHostRule, Cidr[]][] = [
  ['unspecified', [cidr('0.0.0.0/8'), cidr('::/128')]],
  ['link-local', [cidr('169.254.0.0/16'), cidr('fe80::/10')]],
  ['multicast', [cidr('224.0.0.0/4'), cidr('ff00::/8')]],
  ['broadcast', [cidr('255.255.255.255/32')]],
  ['reserved', [cidr('240.0.0.0/4')]],
];
/** A carrier only where the operator lists it. */
const UNLESS_ALLOWED: [SwitchboardHostRule, Cidr[]][] = [
  ['loopback', [cidr('127.0.0.0/8'), cidr('::1/128')]],
  ['private', [cidr('10.0.0.0/8'), cidr('172.16.0.0/12'), cidr('192.168.0.0/16'), cidr('100.64.0.0/10'), cidr('fc00::/7'), cidr('fec0::/10')]],
];

/** The IPv4 address inside an IPv6 one that reaches it (mapped, compatible, NAT64, 6to4). */
export function embeddedIpv4(ip: Ip): Ip | null {
  if (ip.v !== 6) return null;
  const low = Number(ip.n & 0xffffffffn);
  if (inCidr(ip, cidr('::ffff:0:0/96')) || inCidr(ip, cidr('64:ff9b::/96')) || inCidr(ip, cidr('64:ff9b:1::/48'))) return { v: 4, n: low };
  // IPv4-compatible (::a.b.c.d, deprecated) but not :: and ::1 themselves.
  if (ip.n >> 32n === 0n && ip.n > 1n) return { v: 4, n: low };
  if (inCidr(ip, cidr('2002::/16'))) return { v: 4, n: Number((ip.n >> 80n) & 0xffffffffn) };
  return null;
}

const servicePort = (port: number, s: HostPolicySettings) => s.servicePorts.some(([from, to]) => port >= from && port <= to);

/** The address rules alone (no port), the embedded IPv4 of an IPv6 address judged as itself. */
function addressVerdict(ip: Ip, s: HostPolicySettings): Verdict {
  const inner = embeddedIpv4(ip);
  if (inner) {
    const v = addressVerdict(inner, s);
    if (!v.ok) return v;
  }
  for (const [rule, nets] of ALWAYS) if (nets.some((n) => inCidr(ip, n))) return { ok: false, rule };
  if (s.allowedNetworks.some((n) => inCidr(ip, n))) return { ok: true };
  for (const [rule, nets] of UNLESS_ALLOWED) if (nets.some((n) => inCidr(ip, n))) return { ok: false, rule };
  if (s.ownAddresses.some((o) => sameIp(o, ip) || (inner && sameIp(o, inner)))) return { ok: false, rule: 'own-address' };
  return { ok: true };
}

/** The port rule alone: a port of the PBX's own services, whatever the address (a name that answers nothing too). */
export function judgePort(port: number, s: HostPolicySettings): Verdict {
  return servicePort(port, s) ? { ok: false, rule: 'service-port' } : { ok: true };
}

/** May the PBX send SIP to this address and port? */
export function judge(ip: Ip, port: number, s: HostPolicySettings): Verdict {
  const p = judgePort(port, s);
  return p.ok ? addressVerdict(ip, s) : p;
}

/** Parses a comma / space separated list of networks; throws naming a bad entry (a setting is checked at start). */
export function parseNetworks(list: string | undefined, name = 'TRUNK_ALLOWED_NETWORKS'): Cidr[] {
  return (list ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((x) => {
      const c = parseCidr(x);
      if (!c) throw new Error(`${name}: "${x}" is not an address or a network (e.g. 10.20.0.0/16)`);
      return c;
    });
}

/** "4090, 4091, 30000-30099" → ranges; throws naming a bad entry. */
export function parsePorts(list: string | undefined, name = 'PBX_SERVICE_PORTS'): [number, number][] {
  return (list ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((x) => {
      const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(x);
      const from = Number(m?.[1]);
      const to = Number(m?.[2] ?? m?.[1]);
      if (!m || from < 1 || to > 65535 || from > to) throw new Error(`${name}: "${x}" is not a port or a range (e.g. 4091 or 30000-30099)`);
      return [from, to];
    });
}
