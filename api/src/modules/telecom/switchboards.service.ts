import { PBX_MSG, TELECOM_MSG, type SwitchboardHostRule, type Paged, type Switchboard, type SwitchboardInput, type SwitchboardStatus, type TelecomListQuery } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError, ConflictError, isUniqueViolation, violationText } from '../../http/errors';
import { found } from '../pbx/pbx.service';
import { sealSwitchboardPassword } from '../subscribers/subscribers.service';
import { channelsInUse, type SwitchboardHosts } from '../trunks/trunks.service';
import * as repo from './switchboards.repository';

/**
 * Switchboards (issue 15): a tenant's carrier trunks. The password is sealed (AES-256-GCM, the
 * tenant and the purpose "switchboard" in the additional data) and never answered: rows say
 * `has_password`. Status: `disabled` when off, `ip` when the carrier knows us by address, else
 * `pending` until Kamailio's registration reports (the trunk path writes it).
 */

/** A 400 naming the field, its message as the answer's message (the screen shows it). */
export function fieldError(field: string, message: string): AppError {
  const err = new AppError('VALIDATION_FAILED', [{ field, message }]);
  err.message = message;
  return err;
}

/**
 * 422 SWITCHBOARD_HOST_REFUSED (issue 32): the host (or, for a service port, the port) under its
 * field with the rule that refused it; nothing is saved.
 */
export function hostRefused(rule: SwitchboardHostRule): AppError {
  const field = rule === 'service-port' ? 'port' : 'host';
  return new AppError('SWITCHBOARD_HOST_REFUSED', [{ field, message: TELECOM_MSG.internalHost, rule }]);
}

/** The host as it is stored (an IP literal canonical), or the refusal, before anything is written. */
async function vetted(hosts: SwitchboardHosts, x: SwitchboardInput): Promise<SwitchboardInput> {
  // The schema lets an IPv6 shape through for the policy to judge; one that is no address is a typo.
  if (hosts.malformed(x.host)) throw fieldError('host', TELECOM_MSG.host);
  const checked = await hosts.check(x.host, x.port);
  if (!checked.ok) throw hostRefused(checked.rule);
  return { ...x, host: checked.host };
}

export const initialStatus = (x: Pick<SwitchboardInput, 'enabled' | 'register'>): SwitchboardStatus => (!x.enabled ? 'disabled' : !x.register ? 'ip' : 'pending');

export function createSwitchboardsService(db: Db, hosts: SwitchboardHosts) {
  const live = (tenantId: number) => {
    const inUse = channelsInUse(tenantId);
    return (r: repo.SwitchboardRow): Switchboard => ({ ...r, channels_in_use: inUse.get(r.id) ?? 0 });
  };
  const write = <T>(tenantId: number, fn: (tx: Queryable) => Promise<T>) =>
    db.withTenant(tenantId, fn).catch((e: unknown) => {
      if (isUniqueViolation(e) && violationText(e).includes('telecom_switchboards_name_key')) {
        throw new ConflictError(PBX_MSG.nameTaken, [{ field: 'name', message: PBX_MSG.nameTaken }]);
      }
      throw e;
    });
  const seal = (tenantId: number, password: string) => (password ? sealSwitchboardPassword(tenantId, password) : '');

  return {
    async list(tenantId: number, q: TelecomListQuery): Promise<Paged<Switchboard>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listSwitchboards(tx, q));
      return { data: rows.map(live(tenantId)), meta: { page: q.page, per_page: q.per_page, total } };
    },
    all: async (tenantId: number): Promise<Switchboard[]> => (await db.withTenant(tenantId, repo.allSwitchboards)).map(live(tenantId)),
    get: async (tenantId: number, id: number): Promise<Switchboard> => live(tenantId)(found(await db.withTenant(tenantId, (tx) => repo.getSwitchboard(tx, id)))),

    async create(tenantId: number, input: SwitchboardInput): Promise<Switchboard> {
      if (input.register && !input.auth_password) throw fieldError('auth_password', TELECOM_MSG.passwordRequired);
      const x = await vetted(hosts, input);
      const row = await write(tenantId, async (tx) => {
        const id = await repo.insertSwitchboard(tx, tenantId, x, initialStatus(x), seal(tenantId, x.auth_password));
        return repo.getSwitchboard(tx, id);
      });
      return live(tenantId)(found(row));
    },

    /** An empty auth_password keeps the stored one; the status restarts when the connection changed. */
    async update(tenantId: number, id: number, input: SwitchboardInput): Promise<Switchboard> {
      // Another tenant's id is absent (404) before any host is judged; DNS is asked outside the transaction.
      found(await db.withTenant(tenantId, (tx) => repo.getSwitchboard(tx, id)));
      const x = await vetted(hosts, input);
      const row = await write(tenantId, async (tx) => {
        const before = found(await repo.getSwitchboard(tx, id));
        if (x.register && !x.auth_password && !before.has_password) throw fieldError('auth_password', TELECOM_MSG.passwordRequired);
        const keys = ['host', 'port', 'transport', 'auth_user', 'register', 'register_interval', 'enabled'] as const;
        const changed = !!x.auth_password || keys.some((k) => before[k] !== x[k]);
        await repo.updateSwitchboard(tx, id, x, changed ? initialStatus(x) : null, x.auth_password ? seal(tenantId, x.auth_password) : undefined);
        return repo.getSwitchboard(tx, id);
      });
      return live(tenantId)(found(row));
    },

    /** Refused (409) while a hotline or an outbound rule uses it. */
    async remove(tenantId: number, id: number): Promise<void> {
      await write(tenantId, async (tx) => {
        found(await repo.getSwitchboard(tx, id));
        const uses = await repo.switchboardUses(tx, id);
        if (uses.hotlines || uses.rules) throw new ConflictError(TELECOM_MSG.switchboardInUse);
        await repo.deleteSwitchboard(tx, id);
      });
    },
  };
}
export type SwitchboardsService = ReturnType<typeof createSwitchboardsService>;
