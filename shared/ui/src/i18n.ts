import { registerTranslations } from '@tongdai/platform';

/** Strings of the shared building blocks. */
export const UI_NS = 'ui';
registerTranslations(UI_NS, {
  retry: 'Thử lại',
  loading: 'Đang tải…',
  empty: 'Chưa có dữ liệu',
  emptySearch: 'Không tìm thấy kết quả phù hợp',
  search: 'Tìm kiếm',
  add: 'Thêm mới',
  edit: 'Sửa',
  delete: 'Xoá',
  cancel: 'Huỷ',
  confirm: 'Xác nhận',
  save: 'Lưu',
  updated: 'Đã lưu thay đổi',
  active: 'Đang hoạt động',
  inactive: 'Ngừng hoạt động',
  on: 'Bật',
  off: 'Tắt',
  back: 'Quay lại',
  chooseFile: 'Chọn tệp',
  noFileChosen: 'Chưa chọn tệp',
  actions: 'Thao tác',
  previous: 'Trang trước',
  next: 'Trang sau',
  pageOf: 'Trang {{page}} / {{pages}} · {{total}} bản ghi',
  forbidden: 'Bạn không có quyền truy cập trang này',
  notPurchased: 'Tính năng chưa được đăng ký hoặc đã hết hạn',
  screenCrashed: 'Màn hình gặp lỗi khi hiển thị',
  callNumber: 'Gọi {{number}}',
  phoneNotReady: 'Điện thoại chưa sẵn sàng: máy nhánh chưa đăng ký hoặc đang có cuộc gọi',
});
