import { entityStrings, KPI_ASSIGNEE_TYPES, KPI_MEASURES, KPI_PERIODS, KPI_STATUS_LABELS } from '@tongdai/contracts';
import { registerTranslations } from '@tongdai/platform';

/** Strings of the KPI screens (own namespace; the manifest reads the nav labels before any screen loads). */
export const KPI_NS = 'kpis';

registerTranslations(KPI_NS, {
  ...entityStrings('KPI', 'KPI', 'tên KPI'),
  listTitle: 'Danh sách KPI',
  updated: 'Đã lưu thay đổi',
  navByDepartment: 'KPI theo phòng ban',
  byDepartmentTitle: 'KPI theo phòng ban',
  byDepartmentEmpty: 'Chưa có KPI nào giao cho phòng ban',
  chartTitle: 'Mức hoàn thành KPI của các phòng ban (% chỉ tiêu)',
  allPeriods: 'Tất cả chu kỳ',
  allAssigneeTypes: 'Tất cả đối tượng',
  choose: '— Chọn —',
  deletedAssignee: '(đã xoá)',
  periodRange: '{{from}} – {{to}}',
  hints: { target: 'Đơn vị theo chỉ số: cuộc gọi, phút đàm thoại, % trả lời, giây xử lý trung bình hoặc điểm hài lòng từ 1 đến 5 (có thể nhập số lẻ, ví dụ 4,5)' },
  fields: {
    name: 'Tên KPI', measure: 'Chỉ số', target: 'Chỉ tiêu', period: 'Chu kỳ', start_date: 'Ngày bắt đầu', assignee: 'Giao cho',
    assignee_type: 'Loại đối tượng', progress: 'Thực hiện', status: 'Tiến độ',
  },
  measures: Object.fromEntries(Object.entries(KPI_MEASURES).map(([k, m]) => [k, m.label])),
  units: Object.fromEntries(Object.entries(KPI_MEASURES).map(([k, m]) => [k, m.unit])),
  periods: KPI_PERIODS,
  assigneeTypes: KPI_ASSIGNEE_TYPES,
  status: KPI_STATUS_LABELS,
});
