import { GENERAL_PERMISSION, SUPER_ADMIN_ROLE } from './constants';

/** Permission names as typed constants. The API seeds exactly this catalogue. */
export const PERM = {
  general: GENERAL_PERMISSION,
  customer: {
    view: 'customer.view',
    create: 'customer.create',
    edit: 'customer.edit',
    delete: 'customer.delete',
    export: 'customer.export',
  },
  role: {
    view: 'role.view',
    create: 'role.create',
    edit: 'role.edit',
    delete: 'role.delete',
    changePassword: 'role.changePassword',
    export: 'role.export',
  },
  setting: {
    view: 'setting.view',
    edit: 'setting.edit',
  },
} as const;

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type PermissionName = Leaves<typeof PERM>;

export interface PermissionDef {
  name: PermissionName;
  group: string;
  label: string;
}

/** Catalogue shown in the role editor, grouped by product area (Vietnamese labels). */
export const PERMISSION_CATALOGUE: PermissionDef[] = [
  { name: PERM.customer.view, group: 'Khách hàng', label: 'Xem khách hàng' },
  { name: PERM.customer.create, group: 'Khách hàng', label: 'Thêm khách hàng' },
  { name: PERM.customer.edit, group: 'Khách hàng', label: 'Sửa khách hàng' },
  { name: PERM.customer.delete, group: 'Khách hàng', label: 'Xoá khách hàng' },
  { name: PERM.customer.export, group: 'Khách hàng', label: 'Xuất danh sách khách hàng' },
  { name: PERM.role.view, group: 'Phân quyền', label: 'Xem vai trò' },
  { name: PERM.role.create, group: 'Phân quyền', label: 'Thêm vai trò' },
  { name: PERM.role.edit, group: 'Phân quyền', label: 'Sửa vai trò' },
  { name: PERM.role.delete, group: 'Phân quyền', label: 'Xoá vai trò' },
  { name: PERM.role.changePassword, group: 'Phân quyền', label: 'Đổi mật khẩu' },
  { name: PERM.role.export, group: 'Phân quyền', label: 'Xuất danh sách vai trò' },
  { name: PERM.setting.view, group: 'Cài đặt', label: 'Xem cài đặt' },
  { name: PERM.setting.edit, group: 'Cài đặt', label: 'Sửa cài đặt' },
];

/** The logged-in user as kept locally (SPEC §3): the role name and its permissions. */
export interface SessionUser {
  name: string;
  permissions: { name: string }[];
}

/**
 * SPEC §6: passes if the user is super-admin, or the required permission is "general",
 * or the user's permission names include the required one.
 */
export function hasPermission(user: SessionUser | null | undefined, required: string): boolean {
  if (required === GENERAL_PERMISSION) return true;
  if (!user) return false;
  if (user.name === SUPER_ADMIN_ROLE) return true;
  return user.permissions.some((p) => p.name === required);
}

/** Payment check (SPEC §3). date_expired is an ISO date (YYYY-MM-DD), inclusive. */
export interface PaymentCheck {
  feature_name_data: string[];
  date_expired: string | null;
}

/** A feature is usable when purchased and the subscription has not expired (end of the expiry day). */
export function isFeatureEnabled(payment: PaymentCheck | null | undefined, feature: string | undefined, now: Date = new Date()): boolean {
  if (!feature) return true;
  if (!payment) return false;
  if (!payment.feature_name_data.includes(feature)) return false;
  return !isExpired(payment.date_expired, now);
}

export function isExpired(dateExpired: string | null, now: Date = new Date()): boolean {
  if (!dateExpired) return false;
  const end = new Date(`${dateExpired.slice(0, 10)}T23:59:59.999+07:00`);
  if (Number.isNaN(end.getTime())) return true;
  return now.getTime() > end.getTime();
}
