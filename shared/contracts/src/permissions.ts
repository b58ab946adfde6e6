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
  number: {
    view: 'number.view',
    create: 'number.create',
    edit: 'number.edit',
    delete: 'number.delete',
  },
  inbound: {
    view: 'inbound.view',
    create: 'inbound.create',
    edit: 'inbound.edit',
    delete: 'inbound.delete',
  },
  ringgroup: {
    view: 'ringgroup.view',
    create: 'ringgroup.create',
    edit: 'ringgroup.edit',
    delete: 'ringgroup.delete',
  },
  queue: {
    view: 'queue.view',
    create: 'queue.create',
    edit: 'queue.edit',
    delete: 'queue.delete',
  },
  ivr: {
    view: 'ivr.view',
    create: 'ivr.create',
    edit: 'ivr.edit',
    delete: 'ivr.delete',
  },
  notification: {
    view: 'notification.view',
    create: 'notification.create',
    edit: 'notification.edit',
    delete: 'notification.delete',
  },
  timecondition: {
    view: 'timecondition.view',
    create: 'timecondition.create',
    edit: 'timecondition.edit',
    delete: 'timecondition.delete',
  },
  timegroup: {
    view: 'timegroup.view',
    create: 'timegroup.create',
    edit: 'timegroup.edit',
    delete: 'timegroup.delete',
  },
  greeting: {
    view: 'greeting.view',
    create: 'greeting.create',
    edit: 'greeting.edit',
    delete: 'greeting.delete',
  },
  moh: {
    view: 'moh.view',
    create: 'moh.create',
    edit: 'moh.edit',
    delete: 'moh.delete',
  },
  lastcall: {
    view: 'lastcall.view',
    create: 'lastcall.create',
    edit: 'lastcall.edit',
    delete: 'lastcall.delete',
  },
  outbound: {
    view: 'outbound.view',
    create: 'outbound.create',
    edit: 'outbound.edit',
    delete: 'outbound.delete',
  },
  blocked: {
    view: 'blocked.view',
    create: 'blocked.create',
    edit: 'blocked.edit',
    delete: 'blocked.delete',
  },
  report: {
    view: 'report.view',
    export: 'report.export',
  },
  monitor: {
    view: 'monitor.view',
    /** Listen to, whisper to or barge into an agent's live call (issue 16). */
    spy: 'monitor.spy',
  },
  kpi: {
    view: 'kpi.view',
    create: 'kpi.create',
    edit: 'kpi.edit',
    delete: 'kpi.delete',
  },
  activity: {
    view: 'activity.view',
  },
  /** Switchboards (carrier trunks) and hotlines: /etelecom/*. */
  telecom: {
    view: 'telecom.view',
    create: 'telecom.create',
    edit: 'telecom.edit',
    delete: 'telecom.delete',
  },
  /** Call recordings (issue 16): play in the call history / download the file. */
  recording: {
    listen: 'recording.listen',
    download: 'recording.download',
  },
  /** Survey categories and questions (issue 33); campaigns have their own (campaign.*). */
  survey: {
    view: 'survey.view',
    edit: 'survey.edit',
  },
  /** Survey and marketing campaigns (issue 33): see, edit (and import contacts), start/pause/end, export results. */
  campaign: {
    view: 'campaign.view',
    edit: 'campaign.edit',
    run: 'campaign.run',
    export: 'campaign.export',
  },
  /** Do-not-call lists (issue 33): the tenant's own and the national "Danh sách không quảng cáo". */
  dnc: {
    view: 'dnc.view',
    edit: 'dnc.edit',
  },
  /** Voice-OTP (issue 35): see the requests; manage the API keys and the hotlines that call. */
  otp: {
    view: 'otp.view',
    manage: 'otp.manage',
  },
  /** CRM integrations (issue 39): the API keys a CRM uses, their webhooks and delivery log (/integrations). */
  integrations: {
    manage: 'integrations.manage',
  },
  /** The audit log of administrative changes (issue 42): read it on /setting/audit-log, export it. */
  audit: {
    view: 'audit.view',
    export: 'audit.export',
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
  { name: PERM.team.view, group: 'Nhóm trong phòng ban', label: 'Xem nhóm trong phòng ban' },
  { name: PERM.team.create, group: 'Nhóm trong phòng ban', label: 'Thêm nhóm trong phòng ban' },
  { name: PERM.team.edit, group: 'Nhóm trong phòng ban', label: 'Sửa nhóm trong phòng ban' },
  { name: PERM.team.delete, group: 'Nhóm trong phòng ban', label: 'Xoá nhóm trong phòng ban' },
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
  { name: PERM.number.view, group: 'Số điện thoại (DID)', label: 'Xem số điện thoại' },
  { name: PERM.number.create, group: 'Số điện thoại (DID)', label: 'Thêm số điện thoại' },
  { name: PERM.number.edit, group: 'Số điện thoại (DID)', label: 'Sửa số điện thoại' },
  { name: PERM.number.delete, group: 'Số điện thoại (DID)', label: 'Xoá số điện thoại' },
  { name: PERM.inbound.view, group: 'Tuyến gọi vào', label: 'Xem tuyến gọi vào' },
  { name: PERM.inbound.create, group: 'Tuyến gọi vào', label: 'Thêm tuyến gọi vào' },
  { name: PERM.inbound.edit, group: 'Tuyến gọi vào', label: 'Sửa tuyến gọi vào' },
  { name: PERM.inbound.delete, group: 'Tuyến gọi vào', label: 'Xoá tuyến gọi vào' },
  { name: PERM.ringgroup.view, group: 'Nhóm đổ chuông', label: 'Xem nhóm đổ chuông' },
  { name: PERM.ringgroup.create, group: 'Nhóm đổ chuông', label: 'Thêm nhóm đổ chuông' },
  { name: PERM.ringgroup.edit, group: 'Nhóm đổ chuông', label: 'Sửa nhóm đổ chuông' },
  { name: PERM.ringgroup.delete, group: 'Nhóm đổ chuông', label: 'Xoá nhóm đổ chuông' },
  { name: PERM.queue.view, group: 'Hàng đợi', label: 'Xem hàng đợi' },
  { name: PERM.queue.create, group: 'Hàng đợi', label: 'Thêm hàng đợi' },
  { name: PERM.queue.edit, group: 'Hàng đợi', label: 'Sửa hàng đợi' },
  { name: PERM.queue.delete, group: 'Hàng đợi', label: 'Xoá hàng đợi' },
  { name: PERM.ivr.view, group: 'IVR', label: 'Xem IVR' },
  { name: PERM.ivr.create, group: 'IVR', label: 'Thêm IVR' },
  { name: PERM.ivr.edit, group: 'IVR', label: 'Sửa IVR' },
  { name: PERM.ivr.delete, group: 'IVR', label: 'Xoá IVR' },
  { name: PERM.notification.view, group: 'Thông báo', label: 'Xem thông báo' },
  { name: PERM.notification.create, group: 'Thông báo', label: 'Thêm thông báo' },
  { name: PERM.notification.edit, group: 'Thông báo', label: 'Sửa thông báo' },
  { name: PERM.notification.delete, group: 'Thông báo', label: 'Xoá thông báo' },
  { name: PERM.timecondition.view, group: 'Điều kiện thời gian', label: 'Xem điều kiện thời gian' },
  { name: PERM.timecondition.create, group: 'Điều kiện thời gian', label: 'Thêm điều kiện thời gian' },
  { name: PERM.timecondition.edit, group: 'Điều kiện thời gian', label: 'Sửa điều kiện thời gian' },
  { name: PERM.timecondition.delete, group: 'Điều kiện thời gian', label: 'Xoá điều kiện thời gian' },
  { name: PERM.timegroup.view, group: 'Nhóm thời gian', label: 'Xem nhóm thời gian' },
  { name: PERM.timegroup.create, group: 'Nhóm thời gian', label: 'Thêm nhóm thời gian' },
  { name: PERM.timegroup.edit, group: 'Nhóm thời gian', label: 'Sửa nhóm thời gian' },
  { name: PERM.timegroup.delete, group: 'Nhóm thời gian', label: 'Xoá nhóm thời gian' },
  { name: PERM.greeting.view, group: 'Lời chào', label: 'Xem lời chào' },
  { name: PERM.greeting.create, group: 'Lời chào', label: 'Thêm lời chào' },
  { name: PERM.greeting.edit, group: 'Lời chào', label: 'Sửa lời chào' },
  { name: PERM.greeting.delete, group: 'Lời chào', label: 'Xoá lời chào' },
  { name: PERM.moh.view, group: 'Nhạc chờ', label: 'Xem nhạc chờ' },
  { name: PERM.moh.create, group: 'Nhạc chờ', label: 'Thêm nhạc chờ' },
  { name: PERM.moh.edit, group: 'Nhạc chờ', label: 'Sửa nhạc chờ' },
  { name: PERM.moh.delete, group: 'Nhạc chờ', label: 'Xoá nhạc chờ' },
  { name: PERM.lastcall.view, group: 'Gọi lại người nghe gần nhất', label: 'Xem quy tắc gọi lại' },
  { name: PERM.lastcall.create, group: 'Gọi lại người nghe gần nhất', label: 'Thêm quy tắc gọi lại' },
  { name: PERM.lastcall.edit, group: 'Gọi lại người nghe gần nhất', label: 'Sửa quy tắc gọi lại' },
  { name: PERM.lastcall.delete, group: 'Gọi lại người nghe gần nhất', label: 'Xoá quy tắc gọi lại' },
  { name: PERM.outbound.view, group: 'Tuyến gọi ra', label: 'Xem tuyến gọi ra' },
  { name: PERM.outbound.create, group: 'Tuyến gọi ra', label: 'Thêm tuyến gọi ra' },
  { name: PERM.outbound.edit, group: 'Tuyến gọi ra', label: 'Sửa tuyến gọi ra' },
  { name: PERM.outbound.delete, group: 'Tuyến gọi ra', label: 'Xoá tuyến gọi ra' },
  { name: PERM.blocked.view, group: 'Chặn số', label: 'Xem số bị chặn' },
  { name: PERM.blocked.create, group: 'Chặn số', label: 'Thêm số bị chặn' },
  { name: PERM.blocked.edit, group: 'Chặn số', label: 'Sửa số bị chặn' },
  { name: PERM.blocked.delete, group: 'Chặn số', label: 'Xoá số bị chặn' },
  { name: PERM.report.view, group: 'Báo cáo', label: 'Xem lịch sử cuộc gọi của cả công ty' },
  { name: PERM.report.export, group: 'Báo cáo', label: 'Xuất báo cáo cuộc gọi' },
  { name: PERM.monitor.view, group: 'Giám sát', label: 'Xem màn hình giám sát trực tiếp' },
  { name: PERM.monitor.spy, group: 'Giám sát', label: 'Nghe, nhắc và tham gia cuộc gọi của nhân viên' },
  { name: PERM.kpi.view, group: 'KPI', label: 'Xem KPI' },
  { name: PERM.kpi.create, group: 'KPI', label: 'Thêm KPI' },
  { name: PERM.kpi.edit, group: 'KPI', label: 'Sửa KPI' },
  { name: PERM.kpi.delete, group: 'KPI', label: 'Xoá KPI' },
  { name: PERM.activity.view, group: 'Hoạt động', label: 'Xem hoạt động người dùng' },
  { name: PERM.telecom.view, group: 'Viễn thông', label: 'Xem tổng đài nhà mạng và hotline' },
  { name: PERM.telecom.create, group: 'Viễn thông', label: 'Thêm tổng đài nhà mạng và hotline' },
  { name: PERM.telecom.edit, group: 'Viễn thông', label: 'Sửa tổng đài nhà mạng và hotline' },
  { name: PERM.telecom.delete, group: 'Viễn thông', label: 'Xoá tổng đài nhà mạng và hotline' },
  { name: PERM.recording.listen, group: 'Ghi âm', label: 'Nghe ghi âm cuộc gọi' },
  { name: PERM.recording.download, group: 'Ghi âm', label: 'Tải ghi âm cuộc gọi' },
  { name: PERM.survey.view, group: 'Khảo sát', label: 'Xem danh mục và câu hỏi khảo sát' },
  { name: PERM.survey.edit, group: 'Khảo sát', label: 'Thêm, sửa, xoá danh mục và câu hỏi khảo sát' },
  { name: PERM.campaign.view, group: 'Chiến dịch', label: 'Xem chiến dịch khảo sát, marketing và tiến độ' },
  { name: PERM.campaign.edit, group: 'Chiến dịch', label: 'Thêm, sửa, xoá chiến dịch và nhập danh sách liên hệ' },
  { name: PERM.campaign.run, group: 'Chiến dịch', label: 'Bắt đầu, tạm dừng, kết thúc chiến dịch' },
  { name: PERM.campaign.export, group: 'Chiến dịch', label: 'Xuất kết quả chiến dịch' },
  { name: PERM.dnc.view, group: 'Chiến dịch', label: 'Xem danh sách không gọi (của doanh nghiệp và quốc gia)' },
  { name: PERM.dnc.edit, group: 'Chiến dịch', label: 'Thêm, xoá, nhập tệp danh sách không gọi' },
  { name: PERM.otp.view, group: 'Voice OTP', label: 'Xem yêu cầu OTP và hotline gọi OTP' },
  { name: PERM.otp.manage, group: 'Voice OTP', label: 'Quản lý khoá API và hotline gọi OTP' },
  { name: PERM.integrations.manage, group: 'Tích hợp CRM', label: 'Quản lý khoá API cho CRM, webhook sự kiện cuộc gọi và nhật ký gửi' },
  { name: PERM.audit.view, group: 'Nhật ký thay đổi', label: 'Xem nhật ký thay đổi cấu hình (ai, khi nào, thay đổi gì)' },
  { name: PERM.audit.export, group: 'Nhật ký thay đổi', label: 'Xuất nhật ký thay đổi' },
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

/**
 * Whether the API lets `user` give an account this role (ADR 0018): super-admin only by a
 * super-admin, any other role only if the user holds all of its permissions. Screens use it to
 * offer only what the API accepts.
 */
export function canAssignRole(user: SessionUser | null | undefined, role: { name: string; permissions: { name: string }[] }): boolean {
  if (!user) return false;
  if (user.name === SUPER_ADMIN_ROLE) return true;
  return role.name !== SUPER_ADMIN_ROLE && role.permissions.every((p) => user.permissions.some((q) => q.name === p.name));
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
