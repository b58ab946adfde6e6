import { registerTranslations } from '@tongdai/platform';

/** Strings of the roles screens (own namespace: areas of mf-crm do not share a file). */
export const ROLES_NS = 'roles';
registerTranslations(ROLES_NS, {
  nav: 'Vai trò & phân quyền',
  listTitle: 'Vai trò & phân quyền',
  addTitle: 'Thêm vai trò',
  editTitle: 'Sửa vai trò',
  add: 'Thêm vai trò',
  searchPlaceholder: 'Tìm theo tên hoặc mô tả vai trò',
  empty: 'Chưa có vai trò nào',
  created: 'Đã thêm vai trò',
  updated: 'Đã lưu thay đổi',
  deleted: 'Đã xoá vai trò',
  confirmDeleteTitle: 'Xoá vai trò',
  confirmDelete: 'Bạn có chắc muốn xoá vai trò "{{name}}"? Thao tác này không thể hoàn tác.',
  export: 'Xuất Excel',
  exported: 'Đã xuất danh sách vai trò',
  changePassword: 'Đổi mật khẩu',
  superAdminNote: 'Vai trò super-admin luôn có toàn quyền: không thể đổi tên, bớt quyền hoặc xoá.',
  fields: { name: 'Tên vai trò', display_name: 'Tên hiển thị', description: 'Mô tả', permissions: 'Quyền', permissionsCount: 'Số quyền', usersCount: 'Số tài khoản' },
  matrix: {
    title: 'Phân quyền',
    search: 'Tìm quyền',
    selectAll: 'Chọn tất cả nhóm {{group}}',
    selected: 'Đã chọn {{count}} / {{total}} quyền',
    noMatch: 'Không có quyền nào khớp',
    loadError: 'Không tải được danh sách quyền',
  },
  sheet: { name: 'Tên vai trò', description: 'Mô tả', permissions: 'Số quyền', users: 'Số tài khoản', list: 'Danh sách quyền' },
});
