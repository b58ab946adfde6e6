import { entityStrings, INTERNATIONAL_PREFIXES, PREMIUM_PREFIXES } from '@tongdai/contracts';
import { registerTranslations } from '@tongdai/platform';

const prefixes = (xs: readonly string[]) => xs.join(', ');

/** Strings of /outbound. */
export const OUTBOUND_NS = 'pbx-outbound';
registerTranslations(OUTBOUND_NS, {
  ...entityStrings('tuyến gọi ra', 'Tuyến gọi ra', 'tên, mẫu quay số'),
  confirmDelete: 'Bạn có chắc muốn xoá tuyến gọi ra "{{name}}"? Cuộc gọi khớp mẫu này sẽ đi qua tuyến kế tiếp hoặc bị từ chối.',
  international: 'Quốc tế',
  premium: 'Giá cao',
  strip: 'bỏ {{count}} số đầu',
  prepend: 'thêm {{prepend}}',
  unchanged: 'giữ nguyên',
  hints: {
    pattern: 'X = 0–9, Z = 1–9, N = 2–9, [1-5] = một chữ số trong khoảng, dấu . ở cuối = một hoặc nhiều chữ số bất kỳ. Ví dụ: 0[35789]XXXXXXXX, 1900XXXX',
    prepend: 'Thêm vào đầu số sau khi bỏ bớt số đầu (ví dụ 84)',
  },
  fields: {
    priority: 'Thứ tự ưu tiên (nhỏ được xét trước)',
    name: 'Tên tuyến',
    pattern: 'Mẫu quay số',
    strip: 'Bỏ bớt số đầu',
    prepend: 'Thêm tiền tố',
    trunk: 'Trunk',
    switchboard_ids: 'Tổng đài nhà mạng (theo thứ tự dự phòng)',
    caller_id: 'Số hiển thị (Caller ID)',
    caller_id_mode: 'Cách chọn số hiển thị',
    allow_international: `Cho phép gọi quốc tế (đầu số ${prefixes(INTERNATIONAL_PREFIXES)})`,
    allow_premium: `Cho phép gọi đầu số giá cao (${prefixes(PREMIUM_PREFIXES)})`,
    description: 'Mô tả',
    rewrite: 'Biến đổi số',
    order: 'Ưu tiên',
    allowed: 'Được phép',
  },
});
