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
  account: {
    view: 'account.view',
    create: 'account.create',
    edit: 'account.edit',
    delete: 'account.delete',
    changePassword: 'account.changePassword',
  },
  department: {
    view: 'department.view',
    create: 'department.create',
    edit: 'department.edit',
    delete: 'department.delete',
  },
  team: {
    view: 'team.view',
    create: 'team.create',
    edit: 'team.edit',
    delete: 'team.delete',
  },
  branch: {
    view: 'branch.view',
    create: 'branch.create',
    edit: 'branch.edit',
    delete: 'branch.delete',
  },
  project: {
    view: 'project.view',
    create: 'project.create',
    edit: 'project.edit',
    delete: 'project.delete',
  },
  datasource: {
    view: 'datasource.view',
    create: 'datasource.create',
    edit: 'datasource.edit',
    delete: 'datasource.delete',
  },
  profilestatus: {
    view: 'profilestatus.view',
    create: 'profilestatus.create',
    edit: 'profilestatus.edit',
    delete: 'profilestatus.delete',
  },
  group: {
    view: 'group.view',
    create: 'group.create',
    edit: 'group.edit',
    delete: 'group.delete',
  },
  subscriber: {
    view: 'subscriber.view',
    create: 'subscriber.create',
    edit: 'subscriber.edit',
    delete: 'subscriber.delete',
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
  { name: PERM.setting.view, group: 'Cài đặt', label: 'Xem cài đặt hệ thống' },
  { name: PERM.setting.edit, group: 'Cài đặt', label: 'Sửa cài đặt hệ thống' },
  { name: PERM.account.view, group: 'Tài khoản', label: 'Xem tài khoản' },
  { name: PERM.account.create, group: 'Tài khoản', label: 'Thêm tài khoản' },
  { name: PERM.account.edit, group: 'Tài khoản', label: 'Sửa tài khoản' },
  { name: PERM.account.delete, group: 'Tài khoản', label: 'Xoá tài khoản' },
  { name: PERM.account.changePassword, group: 'Tài khoản', label: 'Đổi mật khẩu tài khoản' },
  { name: PERM.department.view, group: 'Phòng ban', label: 'Xem phòng ban' },
  { name: PERM.department.create, group: 'Phòng ban', label: 'Thêm phòng ban' },
  { name: PERM.department.edit, group: 'Phòng ban', label: 'Sửa phòng ban' },
  { name: PERM.department.delete, group: 'Phòng ban', label: 'Xoá phòng ban' },
  { name: PERM.team.view, group: 'Nhóm', label: 'Xem nhóm' },
  { name: PERM.team.create, group: 'Nhóm', label: 'Thêm nhóm' },
  { name: PERM.team.edit, group: 'Nhóm', label: 'Sửa nhóm' },
  { name: PERM.team.delete, group: 'Nhóm', label: 'Xoá nhóm' },
  { name: PERM.branch.view, group: 'Chi nhánh', label: 'Xem chi nhánh' },
  { name: PERM.branch.create, group: 'Chi nhánh', label: 'Thêm chi nhánh' },
  { name: PERM.branch.edit, group: 'Chi nhánh', label: 'Sửa chi nhánh' },
  { name: PERM.branch.delete, group: 'Chi nhánh', label: 'Xoá chi nhánh' },
  { name: PERM.project.view, group: 'Dự án', label: 'Xem dự án' },
  { name: PERM.project.create, group: 'Dự án', label: 'Thêm dự án' },
  { name: PERM.project.edit, group: 'Dự án', label: 'Sửa dự án' },
  { name: PERM.project.delete, group: 'Dự án', label: 'Xoá dự án' },
  { name: PERM.datasource.view, group: 'Nguồn dữ liệu', label: 'Xem nguồn dữ liệu' },
  { name: PERM.datasource.create, group: 'Nguồn dữ liệu', label: 'Thêm nguồn dữ liệu' },
  { name: PERM.datasource.edit, group: 'Nguồn dữ liệu', label: 'Sửa nguồn dữ liệu' },
  { name: PERM.datasource.delete, group: 'Nguồn dữ liệu', label: 'Xoá nguồn dữ liệu' },
  { name: PERM.profilestatus.view, group: 'Trạng thái hồ sơ', label: 'Xem trạng thái hồ sơ' },
  { name: PERM.profilestatus.create, group: 'Trạng thái hồ sơ', label: 'Thêm trạng thái hồ sơ' },
  { name: PERM.profilestatus.edit, group: 'Trạng thái hồ sơ', label: 'Sửa trạng thái hồ sơ' },
  { name: PERM.profilestatus.delete, group: 'Trạng thái hồ sơ', label: 'Xoá trạng thái hồ sơ' },
  { name: PERM.group.view, group: 'Nhóm người dùng', label: 'Xem nhóm người dùng' },
  { name: PERM.group.create, group: 'Nhóm người dùng', label: 'Thêm nhóm người dùng' },
  { name: PERM.group.edit, group: 'Nhóm người dùng', label: 'Sửa nhóm người dùng' },
  { name: PERM.group.delete, group: 'Nhóm người dùng', label: 'Xoá nhóm người dùng' },
  { name: PERM.subscriber.view, group: 'Máy nhánh', label: 'Xem máy nhánh' },
  { name: PERM.subscriber.create, group: 'Máy nhánh', label: 'Thêm máy nhánh' },
  { name: PERM.subscriber.edit, group: 'Máy nhánh', label: 'Sửa máy nhánh' },
  { name: PERM.subscriber.delete, group: 'Máy nhánh', label: 'Xoá máy nhánh' },
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
