import { registerTranslations } from '@tongdai/platform';

/** Strings of the time condition screens. */
export const CONDITIONS_NS = 'pbx-conditions';
registerTranslations(CONDITIONS_NS, {
  nav: 'Điều kiện thời gian',
  listTitle: 'Điều kiện thời gian',
  add: 'Thêm điều kiện thời gian',
  addTitle: 'Thêm điều kiện thời gian',
  editTitle: 'Sửa điều kiện thời gian',
  searchPlaceholder: 'Tìm theo tên, mô tả',
  empty: 'Chưa có điều kiện thời gian nào',
  created: 'Đã thêm điều kiện thời gian',
  updated: 'Đã lưu thay đổi',
  deleted: 'Đã xoá điều kiện thời gian',
  confirmDeleteTitle: 'Xoá điều kiện thời gian',
  confirmDelete: 'Bạn có chắc muốn xoá điều kiện thời gian "{{name}}"?',
  chooseGroup: 'Chọn nhóm thời gian',
  noGroups: 'Chưa có nhóm thời gian nào.',
  createGroup: 'Tạo nhóm thời gian',
  groupsFailed: 'Không tải được danh sách nhóm thời gian: {{message}}',
  overrideHint: 'Tạm thời: giữ đến lần nhóm thời gian chuyển trạng thái kế tiếp, rồi tự quay về theo lịch.',
  overrideActive: 'Đang áp dụng: {{state}}',
  timezoneHint: 'Nhóm thời gian được tính theo giờ của múi giờ này',
  fields: {
    name: 'Tên điều kiện',
    time_group_id: 'Nhóm thời gian',
    matched_destination: 'Điểm đến khi trong giờ',
    unmatched_destination: 'Điểm đến khi ngoài giờ',
    override: 'Chế độ ghi đè',
    timezone: 'Múi giờ',
    description: 'Mô tả',
  },
});
