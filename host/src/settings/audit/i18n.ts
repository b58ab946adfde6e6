import { AUDIT_LABELS } from '@tongdai/contracts';
import { registerTranslations } from '@tongdai/platform';

/** Strings of /setting/audit-log (the entity kit reads listTitle, fields.*, searchPlaceholder, empty, export…). */
export const AUDIT_NS = 'host-audit';
registerTranslations(AUDIT_NS, {
  listTitle: AUDIT_LABELS.title,
  searchPlaceholder: 'Tìm đối tượng, người, IP',
  empty: 'Chưa có thay đổi nào được ghi lại. Mỗi lần vai trò, tài khoản, cấu hình tổng đài, cài đặt… được thêm, sửa hoặc xoá sẽ hiện ở đây.',
  export: 'Xuất nhật ký',
  exported: 'Đã xuất nhật ký thay đổi',
  fields: {
    at: AUDIT_LABELS.at,
    actor: AUDIT_LABELS.actor,
    ip: AUDIT_LABELS.ip,
    kind: AUDIT_LABELS.kind,
    entity: AUDIT_LABELS.entity,
    action: AUDIT_LABELS.action,
  },
  filters: {
    user: AUDIT_LABELS.actor,
    allUsers: 'Mọi người thực hiện',
    kind: AUDIT_LABELS.kind,
    allKinds: 'Mọi loại đối tượng',
    action: AUDIT_LABELS.action,
    allActions: 'Mọi hành động',
  },
  detail: {
    show: 'Chi tiết',
    hide: 'Ẩn chi tiết',
    title: 'Chi tiết thay đổi',
    field: 'Trường',
    before: 'Trước',
    after: 'Sau',
    value: 'Giá trị',
    added: 'Thêm: {{items}}',
    removed: 'Bỏ: {{items}}',
    empty: '(trống)',
    secret: AUDIT_LABELS.secretChanged,
    where: 'Từ địa chỉ {{ip}} · {{ua}}',
    nothing: 'Không có trường nào để hiển thị.',
  },
});
