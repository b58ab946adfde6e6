import { registerTranslations } from '@tongdai/platform';
import { VOICE_REGISTRATION } from '@tongdai/contracts';

/** Strings of /voices/subscribers (the telecom side's view of the extensions). */
export const VOICES_NS = 'voices';
registerTranslations(VOICES_NS, {
  nav: 'Tình trạng máy nhánh',
  listTitle: 'Tình trạng máy nhánh',
  searchPlaceholder: 'Tìm theo số máy nhánh, tên hiển thị, tài khoản',
  empty: 'Chưa có máy nhánh nào',
  registration: 'Trạng thái đăng ký',
  allRegistrations: 'Tất cả trạng thái',
  states: VOICE_REGISTRATION,
  unknownAgent: 'Không rõ',
  fields: {
    extension: 'Số máy nhánh',
    sip_domain: 'Tên miền SIP',
    user: 'Người dùng',
    registered: 'Đăng ký',
    user_agent: 'Thiết bị',
  },
});
