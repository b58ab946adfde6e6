import { createHash } from 'node:crypto';
import { DEFAULT_TENANT_MAX_CHANNELS, TELECOM_MSG, type CallerIdFormat } from '@tongdai/contracts';
import type { Db } from '../../db/db';
import { digestHa1, openSwitchboardPassword } from '../subscribers/subscribers.service';
import type { HostCheck, SwitchboardHosts } from './switchboard-hosts';
import { allSwitchboards, blockSwitchboard, ruleSwitchboards, unblockSwitchboard, type SwitchboardRow } from './trunks.repository';

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
  /**
   * Where to send, as the host policy checked it at this use (ADR 0043): the literal, or an
   * answer of the name. null: nothing may be sent (refused, or a name with no answer).
   */
  address: string | null;
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
/** host:port in a SIP URI (an IPv6 address in brackets). */
export const hostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);
const toCall = (r: SwitchboardRow, c: HostCheck): CallSwitchboard => ({
  id: r.id, tenantId: r.tenant_id, name: r.name, host: r.host, port: r.port, transport: r.transport, callerIdFormat: r.caller_id_format, maxChannels: r.max_channels, enabled: r.enabled,
  address: c.ok ? (c.addresses[0] ?? null) : null,
});

/**
 * The switchboards of all tenants as the SIP plane needs them (ADR 0036), read at most every
 * `ttlMs` (a change reaches Kamailio and the plans within seconds, with no write path to hook).
 * Every host is judged by the host policy at each use (ADR 0043), a name's answers cached
 * `dnsTtlMs`: a refused one is left out of the registrations, the plans and the carrier match, and
 * its switchboard goes to `blocked` with an audit line (and back once the name answers well).
 */
export class SwitchboardDirectory {
  private rows: { at: number; list: Promise<SwitchboardRow[]>; rules: Promise<Map<number, number[]>> } | null = null;
  private readonly checks = new Map<string, { at: number; check: Promise<HostCheck> }>();
  private readonly ttlMs: number;
  private readonly dnsTtlMs: number;
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly db: Db,
    private readonly hosts: SwitchboardHosts,
    opts: { ttlMs?: number; dnsTtlMs?: number; onError?: (err: unknown) => void } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 2_000;
    this.dnsTtlMs = opts.dnsTtlMs ?? 60_000;
    this.onError = opts.onError ?? (() => undefined);
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

  /** The policy's verdict on a host and port now (a name's answers reused for `dnsTtlMs`). */
  check(host: string, port: number): Promise<HostCheck> {
    const key = `${host} ${port}`;
    const now = Date.now();
    const hit = this.checks.get(key);
    if (hit && now - hit.at < this.dnsTtlMs) return hit.check;
    // Hosts edited away leave their verdicts behind: drop the stale ones now and then.
    if (this.checks.size > 1_000) for (const [k, v] of this.checks) if (now - v.at >= this.dnsTtlMs) this.checks.delete(k);
    const check = this.hosts.check(host, port);
    this.checks.set(key, { at: now, check });
    return check;
  }

  /**
   * The rows with their verdicts; an enabled row whose verdict changed its blocked state is written
   * (status, audit line) once: the update only happens when the status really changes. A disabled
   * one keeps saying so (nothing is sent to it anyway).
   */
  private async vetted(rows: SwitchboardRow[]): Promise<{ row: SwitchboardRow; check: HostCheck }[]> {
    const out = await Promise.all(rows.map(async (row) => ({ row, check: await this.check(row.host, row.port) })));
    for (const { row, check } of out) {
      if (!row.enabled) continue;
      if (!check.ok && row.status !== 'blocked') {
        row.status = 'blocked';
        await blockSwitchboard(this.db, row, { reason: TELECOM_MSG.internalHost, address: check.address, rule: check.rule }).catch(this.onError);
      } else if (check.ok && row.status === 'blocked') {
        row.status = row.register ? 'pending' : 'ip';
        await unblockSwitchboard(this.db, row).catch(this.onError);
      }
    }
    return out;
  }

  /**
   * A tenant's switchboards (disabled ones included, the plan skips them), its channel limit, and
   * the outbound rules' switchboards (rule id → ids in order; the rule ids are the tenant's own).
   */
  async ofTenant(tenantId: number): Promise<{ switchboards: CallSwitchboard[]; maxChannels: number; rules: ReadonlyMap<number, number[]> }> {
    const rows = (await this.list()).filter((r) => r.tenant_id === tenantId);
    const rules = (await this.rows?.rules) ?? new Map<number, number[]>();
    const vetted = await this.vetted(rows);
    return { switchboards: vetted.map((v) => toCall(v.row, v.check)), maxChannels: rows[0]?.tenant_max_channels ?? DEFAULT_TENANT_MAX_CHANNELS, rules };
  }

  /**
   * The tenant's enabled switchboard an INVITE without digest came from (IP and port), or null: no
   * open relay. A refused host matches nothing (a blocked switchboard takes no calls either).
   */
  async carrierFor(tenantId: number, ip: string, port: number): Promise<CallSwitchboard | null> {
    const rows = (await this.list()).filter((r) => r.tenant_id === tenantId && r.enabled && r.port === port);
    for (const { row, check } of await this.vetted(rows)) {
      if (check.ok && check.addresses.includes(ip)) return toCall(row, check);
    }
    return null;
  }

  /** Kamailio's view: registrations of enabled trunks that register (with their password), carriers' addresses. */
  async forKamailio(): Promise<KamailioSwitchboards> {
    // Only hosts the policy allows now, each at the address it judged (never re-resolved by Kamailio).
    const vetted = (await this.vetted((await this.list()).filter((r) => r.enabled))).filter((v) => v.check.ok && v.check.addresses.length > 0);
    const rows = vetted.map((v) => v.row);
    const addressOf = new Map(vetted.map((v) => [v.row.id, (v.check as { addresses: string[] }).addresses]));
    const registrations: KamailioSwitchboards['registrations'] = [];
    for (const r of rows) {
      if (!r.register || !r.auth_user) continue;
      const password = openSwitchboardPassword(r.tenant_id, r.auth_password_sealed);
      if (!password) continue;
      const uuid = registrationUuid(r.id);
      const domain = hostPort(r.host, r.port);
      const proxy = `sip:${hostPort(addressOf.get(r.id)![0], r.port)};transport=${r.transport}`;
      // uac.reg_add: l_uuid l_username l_domain r_username r_domain realm auth_username auth_password
      // auth_ha1 auth_proxy expires flags reg_delay socket contact_addr ("." = none / the default).
      const params = [uuid, uuid, 'tongdai.local', r.auth_user, domain, '', r.auth_user, password, '.', proxy, r.register_interval, 0, 0, '', '.'];
      const add = JSON.stringify({ jsonrpc: '2.0', method: 'uac.reg_add', params, id: r.id });
      registrations.push({ uuid, key: `sip:${r.auth_user}@${domain}`, hash: sha(add), add });
    }
    const carriers = [...new Set(rows.flatMap((r) => addressOf.get(r.id)!))].sort();
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
