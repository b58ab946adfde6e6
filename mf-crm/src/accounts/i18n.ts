import { registerTranslations } from '@tongdai/platform';

/** Strings of the accounts screens (own namespace). */
export const ACCOUNTS_NS = 'accounts';
registerTranslations(ACCOUNTS_NS, {
  nav: 'Tài khoản',
  listTitle: 'Tài khoản người dùng',
  addTitle: 'Thêm tài khoản',
  editTitle: 'Sửa tài khoản',
  add: 'Thêm tài khoản',
  searchPlaceholder: 'Tìm theo họ tên, tên đăng nhập, email, số điện thoại, máy nhánh',
  allRoles: 'Tất cả vai trò',
  allStatuses: 'Tất cả trạng thái',
  chooseRole: 'Chọn vai trò',
  chooseDepartment: 'Chọn phòng ban',
  chooseTeam: 'Chọn nhóm',
  chooseBranch: 'Chọn chi nhánh',
  chooseStatus: 'Chọn trạng thái',
  chooseUser: 'Chọn tài khoản',
  noUsersInRole: 'Vai trò chưa có tài khoản nào',
  empty: 'Chưa có tài khoản nào',
  created: 'Đã thêm tài khoản',
  updated: 'Đã lưu thay đổi',
  deleted: 'Đã xoá tài khoản',
  passwordChanged: 'Đã đổi mật khẩu',
  changePassword: 'Đổi mật khẩu',
  confirmDeleteTitle: 'Xoá tài khoản',
  confirmDelete: 'Bạn có chắc muốn xoá tài khoản "{{name}}"? Thao tác này không thể hoàn tác.',
  extensionHint: 'Gán máy nhánh cho tài khoản ở màn hình Máy nhánh',
  seats: 'Đã dùng {{current}}/{{max}} tài khoản',
  fields: {
    full_name: 'Họ và tên', username: 'Tên đăng nhập', email: 'Email', phone: 'Số điện thoại', role_id: 'Vai trò',
    department_id: 'Phòng ban', team_id: 'Nhóm', branch_id: 'Chi nhánh', extension_code: 'Máy nhánh', status: 'Trạng thái',
    password: 'Mật khẩu', password_confirmation: 'Nhập lại mật khẩu', user: 'Tài khoản', role: 'Vai trò',
  },
});
