import { registerTranslations } from '@tongdai/platform';
import { pbxEntityStrings } from '../shared/pbx.i18n';

/** Strings of /ringgroup. */
export const RINGGROUP_NS = 'pbx-ringgroup';
registerTranslations(RINGGROUP_NS, {
  ...pbxEntityStrings('nhóm đổ chuông', 'Nhóm đổ chuông', 'tên nhóm, máy nhánh, mô tả'),
  fields: {
    name: 'Tên nhóm',
    extensions: 'Máy nhánh trong nhóm',
    strategy: 'Chiến lược đổ chuông',
    ring_time: 'Thời gian đổ chuông',
    destination: 'Khi không ai nghe máy',
    description: 'Mô tả',
  },
});
