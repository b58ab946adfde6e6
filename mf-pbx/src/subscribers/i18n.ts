import { registerTranslations } from '@tongdai/platform';

/** Strings of the subscriber (máy nhánh) screens: their own namespace. */
export const SUBSCRIBERS_NS = 'subscribers';
registerTranslations(SUBSCRIBERS_NS, {
  nav: 'Máy nhánh',
  listTitle: 'Danh sách máy nhánh',
  addTitle: 'Thêm máy nhánh',
  editTitle: 'Sửa máy nhánh',
  add: 'Thêm máy nhánh',
  searchPlaceholder: 'Tìm theo số máy nhánh, tên hiển thị, tài khoản',
  empty: 'Chưa có máy nhánh nào',
  noUser: 'Không gán tài khoản',
  created: 'Đã thêm máy nhánh',
  updated: 'Đã lưu thay đổi',
  deleted: 'Đã xoá máy nhánh',
  confirmDeleteTitle: 'Xoá máy nhánh',
  confirmDelete: 'Bạn có chắc muốn xoá máy nhánh {{name}}? Điện thoại đang đăng ký bằng máy nhánh này sẽ không gọi được nữa.',
  accountsForbidden: 'Bạn không có quyền xem danh sách tài khoản nên không thể gán tài khoản cho máy nhánh.',
  accountsFailed: 'Không tải được danh sách tài khoản: {{message}}',
  extensionLocked: 'Số máy nhánh không đổi được sau khi tạo',
  resetPassword: 'Đặt lại mật khẩu',
  confirmResetTitle: 'Đặt lại mật khẩu SIP',
  confirmReset: 'Mật khẩu cũ của máy nhánh {{extension}} sẽ ngừng hoạt động ngay; điện thoại đang dùng nó phải đăng ký lại bằng mật khẩu mới.',
  fields: {
    extension: 'Số máy nhánh',
    display_name: 'Tên hiển thị',
    user_id: 'Tài khoản liên kết',
    created_at: 'Ngày tạo',
  },
  password: {
    createdTitle: 'Đã tạo máy nhánh {{extension}}',
    resetTitle: 'Mật khẩu mới của máy nhánh {{extension}}',
    warning: 'Mật khẩu chỉ hiển thị một lần',
    warningDetail: 'Hãy sao chép và lưu lại ngay. Sau khi đóng hộp thoại, chỉ có thể đặt lại mật khẩu mới.',
    username: 'Tên đăng nhập SIP',
    password: 'Mật khẩu SIP',
    domain: 'Tên miền SIP',
    copy: 'Sao chép',
    copied: 'Đã sao chép mật khẩu',
    copyFailed: 'Không sao chép được, hãy chọn và sao chép thủ công',
    close: 'Tôi đã lưu mật khẩu',
  },
});
