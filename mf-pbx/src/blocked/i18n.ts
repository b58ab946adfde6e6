import { entityStrings, type BlockDirection } from '@tongdai/contracts';
import { registerTranslations } from '@tongdai/platform';

/** Strings of the blocked-number screens: one namespace per direction, the same fields. */
export const BLOCKED_NS: Record<BlockDirection, string> = { in: 'pbx-blocked-in', out: 'pbx-blocked-out' };

const fields = { number: 'Số điện thoại', match: 'Cách so khớp', note: 'Ghi chú', created_at: 'Ngày tạo' };
const hints = { number: 'Đúng số: chỉ số này. Theo đầu số: mọi số bắt đầu bằng các chữ số này (ví dụ 1900).' };
const common = {
  add: 'Thêm số chặn',
  addTitle: 'Thêm số chặn',
  editTitle: 'Sửa số chặn',
  created: 'Đã chặn số',
  deleted: 'Đã bỏ chặn số',
  confirmDeleteTitle: 'Bỏ chặn số',
  confirmDelete: 'Bạn có chắc muốn bỏ chặn {{name}}?',
  empty: 'Chưa có số nào bị chặn',
  fields,
  hints,
};

registerTranslations(BLOCKED_NS.in, {
  ...entityStrings('số chặn gọi vào', 'Chặn số gọi vào', 'số điện thoại, ghi chú'),
  ...common,
  listTitle: 'Danh sách số bị chặn gọi vào',
});
registerTranslations(BLOCKED_NS.out, {
  ...entityStrings('số chặn gọi ra', 'Chặn số gọi ra', 'số điện thoại, ghi chú'),
  ...common,
  listTitle: 'Danh sách số bị chặn gọi ra',
});
