import { NotificationInputSchema, PBX_RESOURCES, PERM, type Notification } from '@tongdai/contracts';
import { descCol, destCol, nameCol } from '../shared/columns';
import type { PbxEntity } from '../shared/entity';
import { NOTIFICATIONS_NS } from './i18n';
import { notificationPaths } from './notifications.routes';

/** An announcement: a recording played to the caller, then a destination (or hang up). */
export const notificationEntity: PbxEntity<Notification> = {
  key: 'notification', ns: NOTIFICATIONS_NS, resource: PBX_RESOURCES.notification, perm: PERM.notification, paths: notificationPaths,
  schema: NotificationInputSchema,
  fields: [
    { name: 'name', kind: 'text', required: true },
    { name: 'greeting_id', kind: 'greeting', required: true },
    { name: 'destination', kind: 'destination' },
    { name: 'description', kind: 'textarea' },
  ],
  columns: [nameCol(), destCol('destination', (r) => r.destination), descCol()],
  rowName: (r) => r.name,
};
