import { registerTranslations } from '@tongdai/platform';

export const NS = 'crm';
registerTranslations(NS, {
  area: 'Khách hàng & Tổ chức',
  nav: { customers: 'Khách hàng' },
  customer: {
    listTitle: 'Danh sách khách hàng',
    addTitle: 'Thêm khách hàng',
    editTitle: 'Sửa khách hàng',
    add: 'Thêm khách hàng',
    searchPlaceholder: 'Tìm theo tên, số điện thoại, mã, email',
    allStatuses: 'Tất cả giai đoạn',
    chooseStatus: 'Chọn giai đoạn chăm sóc',
    empty: 'Chưa có khách hàng nào',
    created: 'Đã thêm khách hàng',
    updated: 'Đã lưu thay đổi',
    deleted: 'Đã xoá khách hàng',
    confirmDeleteTitle: 'Xoá khách hàng',
    confirmDelete: 'Bạn có chắc muốn xoá khách hàng "{{name}}"? Thao tác này không thể hoàn tác.',
    fields: {
      name: 'Họ và tên', code: 'Mã khách hàng', email: 'Email', phone: 'Số điện thoại', address: 'Địa chỉ',
      zalo: 'Zalo', facebook: 'Facebook', status: 'Giai đoạn chăm sóc', note: 'Ghi chú',
      is_project: 'Dự án', is_datasource: 'Nguồn dữ liệu', is_status: 'Trạng thái hồ sơ',
    },
  },
});
