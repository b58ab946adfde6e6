import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of /inbounds (inbound routes) and their import. */
export const INBOUNDS_NS = 'pbx-inbounds';
registerTranslations(INBOUNDS_NS, {
  ...entityStrings('tuyến gọi vào', 'Tuyến gọi vào', 'số DID, mẫu số gọi, mô tả'),
  anyCaller: 'Mọi số gọi',
  fields: { did: 'Số DID', caller_pattern: 'Mẫu số gọi đến', destination: 'Điểm đến', csat: 'Khảo sát hài lòng sau cuộc gọi', description: 'Mô tả' },
  hints: {
    csat: 'Khi người nghe máy (máy nhánh hoặc số bên ngoài) gác máy, người gọi được mời bấm phím 1–5 để đánh giá cuộc gọi. Hàng đợi dùng thiết lập khảo sát của chính hàng đợi đó.',
    caller_pattern:
      'Để trống: mọi số gọi đến. X = một chữ số 0–9, Z = 1–9, N = 2–9, [1-5] = một chữ số trong khoảng, dấu . ở cuối = một hoặc nhiều chữ số bất kỳ. Ví dụ: 098XXXXXXX, 028.',
  },
  import: {
    button: 'Nhập từ tệp',
    title: 'Nhập tuyến gọi vào từ tệp',
    file: 'Tệp CSV hoặc Excel (.xlsx)',
    columns: 'Dòng đầu là tiêu đề với các cột: {{columns}}. Loại điểm đến là một trong: {{types}}. Tối đa {{max}} dòng.',
    template: 'Tải tệp mẫu (CSV)',
    submit: 'Nhập',
    close: 'Đóng',
    another: 'Nhập tệp khác',
    imported: 'Đã nhập {{count}} tuyến',
    refused: 'Các dòng bị từ chối ({{count}})',
    noneRefused: 'Không có dòng nào bị từ chối.',
    row: 'Dòng',
    did: 'Số DID',
    reason: 'Lý do',
  },
});
