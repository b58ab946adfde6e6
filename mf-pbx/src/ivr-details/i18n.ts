import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of /ivr-details (IVR menus). */
export const IVR_NS = 'pbx-ivr';
registerTranslations(IVR_NS, {
  ...entityStrings('IVR', 'IVR', 'tên IVR, mô tả'),
  fields: {
    name: 'Tên IVR',
    greeting_id: 'Lời chào',
    entries: 'Phím bấm và điểm đến',
    timeout: 'Thời gian chờ bấm phím',
    invalid_retries: 'Số lần bấm sai cho phép',
    timeout_destination: 'Khi không bấm phím',
    invalid_destination: 'Khi bấm sai quá số lần',
    direct_dial: 'Cho phép bấm thẳng số máy nhánh',
    description: 'Mô tả',
    dial_code: 'Mã gọi nội bộ',
  },
});
