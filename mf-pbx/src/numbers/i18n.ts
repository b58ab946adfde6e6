import { registerTranslations } from '@tongdai/platform';
import { pbxEntityStrings } from '../shared/pbx.i18n';

/** Strings of /numbers (the tenant's DIDs). */
export const NUMBERS_NS = 'pbx-numbers';
registerTranslations(NUMBERS_NS, {
  ...pbxEntityStrings('số điện thoại', 'Số điện thoại', 'số điện thoại, mô tả'),
  fields: { number: 'Số điện thoại', description: 'Mô tả', active: 'Trạng thái' },
});
