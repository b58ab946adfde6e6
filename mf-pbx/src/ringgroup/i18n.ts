import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of /ringgroup. */
export const RINGGROUP_NS = 'pbx-ringgroup';
registerTranslations(RINGGROUP_NS, {
  ...entityStrings('nhóm đổ chuông', 'Nhóm đổ chuông', 'tên nhóm, máy nhánh, mô tả'),
  fields: {
    name: 'Tên nhóm',
    extensions: 'Máy nhánh trong nhóm',
    strategy: 'Chiến lược đổ chuông',
    ring_time: 'Thời gian đổ chuông',
    destination: 'Khi không ai nghe máy',
    description: 'Mô tả',
    mailbox_code: 'Mã hộp thư nhóm',
  },
});
