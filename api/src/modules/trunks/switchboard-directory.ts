import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DEFAULT_TENANT_MAX_CHANNELS, type CallerIdFormat } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { digestHa1, openSwitchboardPassword } from '../subscribers/subscribers.service';
import { allSwitchboards, ruleSwitchboards, type SwitchboardRow } from './trunks.repository';

/** A switchboard as a call plan uses it: where to send, how many calls at once. */
export interface CallSwitchboard {
  id: number;
  tenantId: number;
  name: string;
  host: string;
  port: number;
  transport: 'udp' | 'tcp';
  /** How the caller ID is written to this carrier. */
  callerIdFormat: CallerIdFormat;
  maxChannels: number;
  enabled: boolean;
}

/** What Kamailio loads (GET /internal/sip/switchboards): the registrations to keep and the carriers' addresses. */
export interface KamailioSwitchboards {
  /** Changes whenever anything below does; Kamailio sends it back and gets 204 while it holds. */
  version: string;
  /** uac remote registrations: `add` is the JSON-RPC uac.reg_add command itself, `hash` its fingerprint. */
  registrations: { uuid: string; key: string; hash: string; add: string }[];
  /** IPv4 addresses of every enabled switchboard: the flood limit spares them. */
  carriers: string[];
}

/** The uac registration's local id, also the Contact user a carrier calls back (sip:tdsb<id>@us). */
export const registrationUuid = (id: number): string => `tdsb${id}`;
export const switchboardOfUuid = (uuid: string): number | null => (/^tdsb(\d{1,9})$/.exec(uuid) ? Number(uuid.slice(4)) : null);

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const toCall = (r: SwitchboardRow): CallSwitchboard => ({
  id: r.id, tenantId: r.tenant_id, name: r.name, host: r.host, port: r.port, transport: r.transport, callerIdFormat: r.caller_id_format, maxChannels: r.max_channels, enabled: r.enabled,
});

/**
 * The switchboards of all tenants as the SIP plane needs them (ADR 0036), read at most every
 * `ttlMs` (a change reaches Kamailio and the plans within seconds, with no write path to hook)
 * and host names resolved through DNS, cached `dnsTtlMs`.
 */
export class SwitchboardDirectory {
  private rows: { at: number; list: Promise<SwitchboardRow[]>; rules: Promise<Map<number, number[]>> } | null = null;
  private readonly dns = new Map<string, { at: number; ips: Promise<string[]> }>();
  private readonly ttlMs: number;
  private readonly dnsTtlMs: number;

  constructor(
    private readonly db: Db,
    opts: { ttlMs?: number; dnsTtlMs?: number } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 2_000;
    this.dnsTtlMs = opts.dnsTtlMs ?? 60_000;
  }

  private list(): Promise<SwitchboardRow[]> {
    const now = Date.now();
    if (this.rows && now - this.rows.at < this.ttlMs) return this.rows.list;
    const entry = { at: now, list: allSwitchboards(this.db), rules: ruleSwitchboards(this.db) };
    this.rows = entry;
    Promise.all([entry.list, entry.rules]).catch(() => {
      if (this.rows === entry) this.rows = null;
    });
    return entry.list;
  }

  /** IPv4 addresses of a host: itself for a literal, else DNS (nothing when it does not resolve). */
  addresses(host: string): Promise<string[]> {
    if (isIP(host) === 4) return Promise.resolve([host]);
    const hit = this.dns.get(host);
    if (hit && Date.now() - hit.at < this.dnsTtlMs) return hit.ips;
    const ips = lookup(host, { all: true, family: 4 }).then(
      (found) => found.map((a) => a.address),
      () => [] as string[],
    );
    this.dns.set(host, { at: Date.now(), ips });
    return ips;
  }

  /**
   * A tenant's switchboards (disabled ones included, the plan skips them), its channel limit, and
   * the outbound rules' switchboards (rule id → ids in order; the rule ids are the tenant's own).
   */
  async ofTenant(tenantId: number): Promise<{ switchboards: CallSwitchboard[]; maxChannels: number; rules: ReadonlyMap<number, number[]> }> {
    const rows = (await this.list()).filter((r) => r.tenant_id === tenantId);
    const rules = (await this.rows?.rules) ?? new Map<number, number[]>();
    return { switchboards: rows.map(toCall), maxChannels: rows[0]?.tenant_max_channels ?? DEFAULT_TENANT_MAX_CHANNELS, rules };
  }

  /** The tenant's enabled switchboard an INVITE without digest came from (IP and port), or null: no open relay. */
  async carrierFor(tenantId: number, ip: string, port: number): Promise<CallSwitchboard | null> {
    for (const r of await this.list()) {
      if (r.tenant_id !== tenantId || !r.enabled || r.port !== port) continue;
      if ((await this.addresses(r.host)).includes(ip)) return toCall(r);
    }
    return null;
  }

  /** Kamailio's view: registrations of enabled trunks that register (with their password), carriers' addresses. */
  async forKamailio(): Promise<KamailioSwitchboards> {
    const rows = (await this.list()).filter((r) => r.enabled);
    const registrations: KamailioSwitchboards['registrations'] = [];
    for (const r of rows) {
      if (!r.register || !r.auth_user) continue;
      const password = openSwitchboardPassword(r.tenant_id, r.auth_password_sealed);
      if (!password) continue;
      const uuid = registrationUuid(r.id);
      const domain = `${r.host}:${r.port}`;
      // uac.reg_add: l_uuid l_username l_domain r_username r_domain realm auth_username auth_password
      // auth_ha1 auth_proxy expires flags reg_delay socket contact_addr ("." = none / the default).
      const params = [uuid, uuid, 'tongdai.local', r.auth_user, domain, '', r.auth_user, password, '.', `sip:${domain};transport=${r.transport}`, r.register_interval, 0, 0, '', '.'];
      const add = JSON.stringify({ jsonrpc: '2.0', method: 'uac.reg_add', params, id: r.id });
      registrations.push({ uuid, key: `sip:${r.auth_user}@${domain}`, hash: sha(add), add });
    }
    const carriers = [...new Set((await Promise.all(rows.map((r) => this.addresses(r.host)))).flat())].sort();
    // The enabled trunks' credentials count too: Kamailio keeps their digest answers until the version changes.
    const credentials = rows.map((r) => [r.id, r.auth_user, sha(r.auth_password_sealed ?? '')]);
    return { version: sha(JSON.stringify([registrations.map((r) => r.hash), carriers, credentials])), registrations, carriers };
  }

  /**
   * The digest answer to a carrier's challenge on an outbound INVITE: the trunk's user and
   * HA1 = MD5(user:realm:password) for the realm the carrier asked, so Kamailio never holds the
   * password for calls (registrations need it, ADR 0036).
   */
  async digest(id: number, realm: string): Promise<{ user: string; ha1: string } | null> {
    const r = (await this.list()).find((x) => x.id === id && x.enabled);
    if (!r || !r.auth_user) return null;
    const password = openSwitchboardPassword(r.tenant_id, r.auth_password_sealed);
    return password ? { user: r.auth_user, ha1: digestHa1(r.auth_user, realm, password) } : null;
  }
}
