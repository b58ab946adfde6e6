import { HOLIDAY_ACTIONS, HolidayOverrideInputSchema, PERM, dialogPaths, paths, type HolidayOverride } from '@tongdai/contracts';
import { pbxEntity } from '../shared/entity';
import { holidayOverrides } from './holidays.api';
import { TIME_GROUPS_NS } from './i18n';

const perm = PERM.timegroup;

/**
 * A tenant's override of one holiday of a year (issue 39): add a day with a name, remove a day of
 * the law, rename one. Edited in a dialog on /time-groups, behind the time groups' permissions.
 */
export const holidayOverrideEntity = pbxEntity<HolidayOverride>({
  key: 'holiday-override', ns: TIME_GROUPS_NS, prefix: 'holiday', paths: dialogPaths(paths.timeGroup.list),
  permission: { view: perm.view, create: perm.edit, edit: perm.edit, delete: perm.edit },
  schema: HolidayOverrideInputSchema,
  fields: [
    { name: 'date', kind: 'date', required: true },
    { name: 'action', kind: 'choice', options: HOLIDAY_ACTIONS },
    { name: 'name', kind: 'text', required: true, when: (d) => d.action !== 'remove' },
  ],
  resource: holidayOverrides,
  rowName: (o) => o.name || o.date,
  columns: [],
});
