import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of /notifications (announcements played to callers). */
export const NOTIFICATIONS_NS = 'pbx-notifications';
registerTranslations(NOTIFICATIONS_NS, {
  ...entityStrings('thông báo', 'Thông báo', 'tên thông báo, mô tả'),
  fields: {
    name: 'Tên thông báo',
    greeting_id: 'Lời thông báo',
    destination: 'Sau khi phát xong',
    description: 'Mô tả',
  },
});
