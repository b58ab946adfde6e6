import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of /queue. */
export const QUEUE_NS = 'pbx-queue';
registerTranslations(QUEUE_NS, {
  ...entityStrings('hàng đợi', 'Hàng đợi', 'tên hàng đợi, máy nhánh, mô tả'),
  fields: {
    name: 'Tên hàng đợi',
    agents: 'Nhân viên nghe máy (máy nhánh)',
    strategy: 'Chiến lược phân phối cuộc gọi',
    agent_timeout: 'Thời gian đổ chuông mỗi nhân viên',
    max_wait: 'Thời gian chờ tối đa',
    timeout_destination: 'Khi hết thời gian chờ',
    join_greeting_id: 'Lời chào khi vào hàng đợi',
    moh_class: 'Nhạc chờ',
    sla_seconds: 'Mức phục vụ: trả lời trong vòng',
    amber_wait_seconds: 'Cảnh báo vàng khi chờ lâu nhất quá',
    red_wait_seconds: 'Cảnh báo đỏ khi chờ lâu nhất quá',
    recording_mode: 'Ghi âm',
    csat: 'Khảo sát hài lòng sau cuộc gọi',
    description: 'Mô tả',
    dial_code: 'Mã gọi nội bộ',
  },
  hints: {
    csat: 'Khi nhân viên gác máy, người gọi được mời bấm phím 1–5 để đánh giá cuộc gọi',
  },
});
