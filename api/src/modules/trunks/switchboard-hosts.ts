import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import type { SwitchboardHostRule } from '@tongdai/contracts';
import { formatIp, judge, judgePort, parseIp, parseNetworks, parsePorts, type HostPolicySettings, type Ip } from './host-policy';

/** A name → its addresses (both families), [] when it does not resolve. The system's DNS by default; tests give a stub. */
export type HostResolver = (name: string) => Promise<string[]>;

/** The system's resolver; a name that has not answered in 3 s answers nothing (it is judged again at use). */
export const systemResolver: HostResolver = (name) =>
  Promise.race([
    lookup(name, { all: true, family: 0 }).then(
      (found) => found.map((a) => a.address),
      () => [],
    ),
    new Promise<string[]>((resolve) => setTimeout(resolve, 3_000, []).unref()),
  ]);

/**
 * A host checked against the policy. `host`: what to store (an IP literal in its canonical
 * spelling, a name as typed); `addresses`: where to send (the literal, or the name's IPv4 answers).
 */
export type HostCheck =
  | { ok: true; host: string; addresses: string[] }
  | { ok: false; host: string; rule: SwitchboardHostRule; address: string };

declare module '../../deps' {
  interface AppDeps {
    /** Where a switchboard may point the PBX (issue 32, ADR 0043): the operator's settings and a resolver. */
    switchboardHosts: SwitchboardHosts;
  }
}

/**
 * The policy (host-policy.ts) with the world it needs: the operator's settings and a resolver.
 * Every answer of a name is judged; one refused answer refuses the name (the resolver Kamailio or
 * a carrier library would use may pick it).
 */
export class SwitchboardHosts {
  constructor(
    readonly settings: HostPolicySettings,
    private readonly resolver: HostResolver = systemResolver,
  ) {}

  /** Text shaped like an IPv6 literal (the schema lets it through) that is none. */
  malformed(host: string): boolean {
    return /[:[\]%]/.test(host) && !parseIp(host);
  }

  async check(host: string, port: number): Promise<HostCheck> {
    const literal = parseIp(host);
    if (literal) {
      const text = formatIp(literal);
      const v = judge(literal, port, this.settings);
      return v.ok ? { ok: true, host: text, addresses: [text] } : { ok: false, host: text, rule: v.rule, address: text };
    }
    const byPort = judgePort(port, this.settings);
    if (!byPort.ok) return { ok: false, host, rule: byPort.rule, address: '' };
    const answers = (await this.resolver(host)).map((a) => parseIp(a)).filter((ip): ip is Ip => ip !== null);
    for (const ip of answers) {
      const v = judge(ip, port, this.settings);
      if (!v.ok) return { ok: false, host, rule: v.rule, address: formatIp(ip) };
    }
    // A name of nothing yet is no refusal: it is judged again at every use.
    return { ok: true, host, addresses: answers.filter((ip) => ip.v === 4).map(formatIp) };
  }

  /**
   * The operator's settings from the environment:
   *   TRUNK_ALLOWED_NETWORKS  networks tenants may use although private / loopback / own (e.g. "10.20.0.0/16")
   *   PBX_OWN_ADDRESSES       the PBX's addresses beyond its interfaces (a public address behind NAT)
   *   PBX_SERVICE_PORTS       ports of its services beyond those this process knows (media workers, rtpengine)
   * The ports the API knows itself (PORT, INTERNAL_PORT, Kamailio's, Redis', PostgreSQL's) are added.
   */
  static fromEnv(env: NodeJS.ProcessEnv = process.env, resolver?: HostResolver): SwitchboardHosts {
    return new SwitchboardHosts(settingsFromEnv(env), resolver);
  }
}

const portOf = (url: string | undefined, fallback?: number): number[] => {
  if (!url) return fallback ? [fallback] : [];
  const m = /:(\d{1,5})(?:[/?]|$)/.exec(url.replace(/^[a-z]+:\/\/[^@/]*@/i, ''));
  return m ? [Number(m[1])] : fallback ? [fallback] : [];
};

export function settingsFromEnv(env: NodeJS.ProcessEnv): HostPolicySettings {
  const apiPort = Number(env.PORT ?? 4000);
  const known = [
    apiPort,
    Number(env.INTERNAL_PORT ?? apiPort + 1),
    ...portOf(env.KAMAILIO_EVAPI),
    ...portOf(env.SIP_WS_URL),
    // Kamailio's SIP port is refused unless it is SIP's own (5060/5061): every carrier listens there.
    ...portOf(env.KAMAILIO_SIP).filter((p) => p !== 5060 && p !== 5061),
    ...portOf(env.REDIS_URL, 6379),
    ...portOf(env.DATABASE_URL, 5432),
    6379,
    5432,
  ].filter((p) => Number.isInteger(p) && p > 0 && p < 65536);
  const interfaces = Object.values(networkInterfaces())
    .flat()
    .map((i) => (i ? parseIp(i.address) : null))
    .filter((ip): ip is Ip => ip !== null);
  return {
    allowedNetworks: parseNetworks(env.TRUNK_ALLOWED_NETWORKS),
    ownAddresses: [...interfaces, ...parseNetworks(env.PBX_OWN_ADDRESSES, 'PBX_OWN_ADDRESSES').map((c) => c.ip)],
    servicePorts: [...new Set(known)].map((p) => [p, p] as [number, number]).concat(parsePorts(env.PBX_SERVICE_PORTS)),
  };
}
