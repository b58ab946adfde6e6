import * as v from 'valibot';
import { MSG } from './messages';
import { ALL_ROWS_PER_PAGE, PAGE_SIZE } from './constants';
import { PERMISSION_CATALOGUE, type PermissionName } from './permissions';
import type { RoleRow } from './api';

const requiredText = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required));
const PERMISSION_NAMES = PERMISSION_CATALOGUE.map((p) => p.name) as [PermissionName, ...PermissionName[]];

/** Role form (create and edit): the permissions are names from the catalogue. */
export const RoleInputSchema = v.object({
  name: v.pipe(requiredText, v.maxLength(64, 'Tối đa 64 ký tự')),
  /** Absent = none ('' in the database): roles are then shown by their name. */
  display_name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'Tối đa 64 ký tự'))),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500, 'Tối đa 500 ký tự')), ''),
  permissions: v.optional(
    v.pipe(
      v.array(v.picklist(PERMISSION_NAMES, 'Quyền không hợp lệ'), 'Quyền không hợp lệ'),
      // Duplicates are harmless but noisy in the database: keep each name once.
      v.transform((names) => [...new Set(names)]),
    ),
    [],
  ),
});
export type RoleInput = v.InferOutput<typeof RoleInputSchema>;

/** How screens name a role: its display name, else its name (never the bare code when a display name exists). */
export const roleLabel = (r: { name: string; display_name?: string | null }): string => r.display_name || r.name;

/** A row of GET /roles: the role, its permissions and how many users hold it. */
export interface RoleListRow extends RoleRow {
  description: string;
  users_count: number;
}

/** GET /role/{id}: the row plus the users holding it (for the change-password dialog). */
export interface RoleDetail extends RoleListRow {
  users: { id: number; username: string; full_name: string }[];
}

/** GET /roles: page size 10, per_page 9999999 for all, optional name search. */
export const RoleSearchQuerySchema = v.object({
  page: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(), v.minValue(1)), 1),
  per_page: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(ALL_ROWS_PER_PAGE)), PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
});
export type RoleSearchQuery = v.InferOutput<typeof RoleSearchQuerySchema>;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MISMATCH = 'Mật khẩu xác nhận không khớp';

/** A new password typed twice. */
const passwordPair = {
  password: v.pipe(
    v.string(MSG.required),
    v.nonEmpty(MSG.required),
    v.minLength(PASSWORD_MIN_LENGTH, `Mật khẩu tối thiểu ${PASSWORD_MIN_LENGTH} ký tự`),
    v.maxLength(128, 'Tối đa 128 ký tự'),
  ),
  password_confirmation: v.pipe(v.string(MSG.required), v.nonEmpty(MSG.required)),
};
export const PASSWORD_PAIR_ENTRIES = passwordPair;
export { samePasswords };

/** Reports a mismatch under password_confirmation, once both fields are otherwise valid. */
const samePasswords = (x: { password: string; password_confirmation: string }) => x.password === x.password_confirmation;
export const PASSWORD_MATCH_PATHS = [['password'], ['password_confirmation']] as const;

/** PUT /accounts/{id}/password. */
export const PasswordChangeSchema = v.pipe(
  v.object(passwordPair),
  v.forward(v.partialCheck(PASSWORD_MATCH_PATHS, samePasswords, PASSWORD_MISMATCH), ['password_confirmation']),
);
export type PasswordChangeInput = v.InferOutput<typeof PasswordChangeSchema>;

/** PUT /role/{id}/password: change the password of one of the role's users. */
export const RolePasswordSchema = v.pipe(
  v.object({ user_id: v.pipe(v.union([v.string(), v.number()], MSG.required), v.transform(Number), v.integer(MSG.required), v.minValue(1, MSG.required)), ...passwordPair }),
  v.forward(v.partialCheck(PASSWORD_MATCH_PATHS, samePasswords, PASSWORD_MISMATCH), ['password_confirmation']),
);
export type RolePasswordInput = v.InferOutput<typeof RolePasswordSchema>;

/** Fixed texts the API answers with, so the screens and tests share them. */
export const ROLE_MSG = {
  nameTaken: 'Tên vai trò đã tồn tại',
  superAdminLocked: 'Không thể xoá, đổi tên hoặc bớt quyền của vai trò super-admin',
  inUse: (users: number) => `Không thể xoá vai trò đang được gán cho ${users} tài khoản`,
  userNotInRole: 'Tài khoản không thuộc vai trò này',
} as const;

/**
 * Why a 403 PRIVILEGE_ESCALATION was answered (docs/adr/0018): a delegated permission never
 * leads further than what its holder already has.
 */
export const PRIVILEGE_MSG = {
  grantNotHeld: 'Không thể cấp hoặc thu hồi quyền mà bạn không có',
  superAdminOnly: 'Chỉ super-admin mới được gán vai trò super-admin hoặc thao tác trên tài khoản super-admin',
  strongerAccount: 'Không thể thao tác trên tài khoản có nhiều quyền hơn bạn',
  ownRole: 'Không thể tự đổi vai trò của chính mình',
} as const;
