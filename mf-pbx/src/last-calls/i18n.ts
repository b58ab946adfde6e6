import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of /last-calls (route a returning caller to the agent they last talked with). */
export const LASTCALLS_NS = 'pbx-last-calls';
registerTranslations(LASTCALLS_NS, {
  ...entityStrings('quy tắc gọi lại người nghe gần nhất', 'Gọi lại người nghe gần nhất', 'tên quy tắc, mô tả'),
  fields: {
    name: 'Tên quy tắc',
    days: 'Tìm cuộc gọi trong',
    ring_time: 'Thời gian đổ chuông',
    fallback_destination: 'Khi không tìm thấy hoặc không nghe máy',
    description: 'Mô tả',
  },
});
