import { registerTranslations } from '@tongdai/platform';
import { entityStrings } from '@tongdai/contracts';

/** Strings of /numbers (the tenant's DIDs). */
export const NUMBERS_NS = 'pbx-numbers';
registerTranslations(NUMBERS_NS, {
  ...entityStrings('số điện thoại', 'Số điện thoại', 'số điện thoại, mô tả'),
  fields: { number: 'Số điện thoại', description: 'Mô tả', active: 'Trạng thái' },
});
