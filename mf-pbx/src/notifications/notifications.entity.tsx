import { type Notification, NotificationInputSchema, paths, PBX_RESOURCES, PERM } from '@tongdai/contracts';
import { descCol, destCol, nameCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { NOTIFICATIONS_NS } from './i18n';

/** An announcement: a recording played to the caller, then a destination (or hang up). */
export const notificationEntity = pbxEntity<Notification>({
  key: 'notification', ns: NOTIFICATIONS_NS, resource: PBX_RESOURCES.notification, permission: PERM.notification, paths: paths.notification,
  schema: NotificationInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'greeting_id', kind: 'greeting', required: true },
    { name: 'destination', kind: 'destination' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [nameCol(), destCol('destination', (r) => r.destination), descCol()],
  rowName: (r) => r.name,
});
