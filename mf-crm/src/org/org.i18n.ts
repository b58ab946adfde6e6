import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of the organisation screens (own namespace, ADR 0005). */
export const ORG_NS = 'org';


registerTranslations(ORG_NS, {
  updated: 'Đã lưu thay đổi',
  active: 'Đang hoạt động',
  inactive: 'Ngừng hoạt động',
  none: '— Không chọn —',
  all: 'Tất cả',
  department: entityStrings('phòng ban', 'Phòng ban', 'tên, mã phòng ban'),
  team: { ...entityStrings('nhóm trong phòng ban', 'Nhóm trong phòng ban', 'tên nhóm, phòng ban'), allDepartments: 'Tất cả phòng ban' },
  branch: entityStrings('chi nhánh', 'Chi nhánh', 'tên, mã, địa chỉ, số điện thoại'),
  project: entityStrings('dự án', 'Dự án', 'tên dự án'),
  dataSource: entityStrings('nguồn dữ liệu', 'Nguồn dữ liệu', 'tên nguồn dữ liệu'),
  profileStatus: entityStrings('trạng thái hồ sơ', 'Trạng thái hồ sơ', 'tên trạng thái'),
  group: { ...entityStrings('nhóm người dùng', 'Nhóm người dùng', 'tên, mô tả'), noUsers: 'Chưa có người dùng nào', memberCount: '{{count}} thành viên' },
  fields: {
    name: 'Tên',
    code: 'Mã',
    description: 'Mô tả',
    manager_id: 'Trưởng phòng',
    leader_id: 'Trưởng nhóm',
    department_id: 'Phòng ban',
    address: 'Địa chỉ',
    phone: 'Số điện thoại',
    color: 'Màu hiển thị',
    active: 'Trạng thái',
    member_ids: 'Thành viên',
    teams: 'Số nhóm',
    users: 'Số người dùng',
  },
  customerLabels: {
    is_project: 'Dự án',
    is_datasource: 'Nguồn dữ liệu',
    is_status: 'Trạng thái hồ sơ',
    allProjects: 'Tất cả dự án',
    allDataSources: 'Tất cả nguồn dữ liệu',
    allProfileStatuses: 'Tất cả trạng thái hồ sơ',
  },
});
