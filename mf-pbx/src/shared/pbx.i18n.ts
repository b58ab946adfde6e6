import { RECORDING_INHERIT_LABEL } from '@tongdai/contracts';
import { registerTranslations } from '@tongdai/platform';

/** Strings shared by every PBX screen (own namespace); each area adds its own with `entityStrings` (@tongdai/contracts). */
export const PBX_NS = 'pbx';
registerTranslations(PBX_NS, {
  updated: 'Đã lưu thay đổi',
  active: 'Đang hoạt động',
  inactive: 'Ngừng hoạt động',
  none: '— Không chọn —',
  hangUp: 'Ngắt máy',
  seconds: 'giây',
  days: 'ngày',
  on: 'Bật',
  off: 'Tắt',
  loadFailed: 'Không tải được danh sách: {{message}}',
  destinationFilter: 'Lọc theo loại điểm đến',
  /** The "" choice of a queue's or extension's recording mode (issue 16). */
  recordingInherit: RECORDING_INHERIT_LABEL,
  extensions: {
    add: 'Thêm máy nhánh…',
    empty: 'Chưa chọn máy nhánh nào',
    orderHint: 'Thứ tự trong danh sách là thứ tự đổ chuông khi chọn chiến lược lần lượt',
    up: 'Đưa máy nhánh {{extension}} lên',
    down: 'Đưa máy nhánh {{extension}} xuống',
    remove: 'Bỏ máy nhánh {{extension}}',
    gone: '{{extension}} (không còn tồn tại)',
    count: '{{count}} máy nhánh',
  },
  entries: {
    digit: 'Phím',
    destination: 'Điểm đến',
    add: 'Thêm phím',
    remove: 'Xoá phím {{digit}}',
    empty: 'Chưa có phím nào: người gọi nghe lời chào rồi đi tới điểm đến khi không bấm phím.',
    count: '{{count}} phím',
  },
  greeting: { none: '— Không phát lời chào —', choose: 'Chọn lời chào' },
  moh: { default: 'Mặc định' },
  did: { choose: 'Chọn số DID', empty: 'Chưa có số điện thoại nào: thêm số ở mục Số điện thoại trước.' },
});
