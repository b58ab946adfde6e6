import { NAME_TAKEN, type OrgListQuery, type Paged } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError, ConflictError, isUniqueViolation } from '../../http/errors';
import { DEPARTMENTS, GROUPS, type EntityDef } from './org.entities';
import * as repo from './org.repository';


const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', [{ field, message }]);

/** Why a department with teams or users cannot go, and what to do instead. */
export function departmentInUseMessage(teams: number, users: number): string {
  const parts = [teams && `${teams} nhóm`, users && `${users} người dùng`].filter(Boolean).join(' và ');
  const who = teams && users ? 'các nhóm và người dùng' : teams ? 'các nhóm' : 'người dùng';
  return `Không thể xoá phòng ban còn ${parts}. Hãy chuyển ${who} sang phòng ban khác trước.`;
}

/** References in the input must be rows the tenant can see: RLS hides the others, so they read as missing. */
async function checkRefs(tx: Queryable, input: Record<string, unknown>): Promise<void> {
  if (typeof input.department_id === 'number' && (await repo.missingIds(tx, 'departments', [input.department_id])).length) {
    throw invalid('department_id', 'Phòng ban không tồn tại');
  }
  for (const field of ['manager_id', 'leader_id']) {
    const id = input[field];
    if (typeof id === 'number' && (await repo.missingIds(tx, 'users', [id])).length) throw invalid(field, 'Người dùng không tồn tại');
  }
  if (Array.isArray(input.member_ids) && (await repo.missingIds(tx, 'users', input.member_ids as number[])).length) {
    throw invalid('member_ids', 'Có thành viên không tồn tại');
  }
}

const LABELS = [
  { field: 'is_project', table: 'projects', message: 'Dự án không tồn tại' },
  { field: 'is_datasource', table: 'data_sources', message: 'Nguồn dữ liệu không tồn tại' },
  { field: 'is_status', table: 'profile_statuses', message: 'Trạng thái hồ sơ không tồn tại' },
] as const;

/** A customer's labels must be the tenant's own rows (400 with the field, not a foreign-key 500). */
export async function checkCustomerLabels(tx: Queryable, input: Partial<Record<(typeof LABELS)[number]['field'], number | null>>): Promise<void> {
  for (const l of LABELS) {
    const id = input[l.field];
    if (typeof id === 'number' && (await repo.missingIds(tx, l.table, [id])).length) throw invalid(l.field, l.message);
  }
}

async function checkName(tx: Queryable, def: EntityDef, input: Record<string, unknown>, exceptId: number): Promise<void> {
  const scope = def.uniqueScope ? input[def.uniqueScope] : undefined;
  if (await repo.nameTaken(tx, def, String(input.name), exceptId, scope)) throw new ConflictError(NAME_TAKEN, [{ field: 'name', message: NAME_TAKEN }]);
}

/** A concurrent insert can still hit the unique index: same answer as the pre-check. */
function uniqueViolation(e: unknown): never {
  if (isUniqueViolation(e)) throw new ConflictError(NAME_TAKEN, [{ field: 'name', message: NAME_TAKEN }]);
  throw e;
}

function found<T>(value: T | null | false): T {
  if (!value) throw new AppError('NOT_FOUND');
  return value;
}

type Input = Record<string, unknown>;

/** CRUD over one entity definition. Every call is one transaction under the caller's tenant. */
export function createOrgService(db: Db, def: EntityDef) {
  const afterWrite = async (tx: Queryable, tenantId: number, id: number, input: Input) => {
    if (def === GROUPS) await repo.setGroupMembers(tx, tenantId, id, input.member_ids as number[]);
    return found(await repo.getRow(tx, def, id));
  };
  return {
    async list(tenantId: number, q: OrgListQuery): Promise<Paged<unknown>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listRows(tx, def, q));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },
    get: async (tenantId: number, id: number) => found(await db.withTenant(tenantId, (tx) => repo.getRow(tx, def, id))),
    create: (tenantId: number, input: Input) =>
      db
        .withTenant(tenantId, async (tx) => {
          await checkRefs(tx, input);
          await checkName(tx, def, input, 0);
          return afterWrite(tx, tenantId, await repo.insertRow(tx, def, tenantId, input), input);
        })
        .catch(uniqueViolation),
    update: (tenantId: number, id: number, input: Input) =>
      db
        .withTenant(tenantId, async (tx) => {
          found(await repo.getRow(tx, def, id));
          await checkRefs(tx, input);
          await checkName(tx, def, input, id);
          found(await repo.updateRow(tx, def, id, input));
          return afterWrite(tx, tenantId, id, input);
        })
        .catch(uniqueViolation),
    async remove(tenantId: number, id: number): Promise<void> {
      await db.withTenant(tenantId, async (tx) => {
        if (def === DEPARTMENTS) {
          found(await repo.getRow(tx, def, id));
          const usage = await repo.departmentUsage(tx, id);
          if (usage.teams || usage.users) throw new ConflictError(departmentInUseMessage(usage.teams, usage.users));
        }
        found(await repo.deleteRow(tx, def, id));
      });
    },
  };
}
