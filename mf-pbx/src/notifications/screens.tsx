import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { notificationEntity } from './notifications.entity';

/** /notifications, /notifications/add, /notifications/edit/:id. */
export const List = () => <EntityListScreen entity={notificationEntity} />;
export const Form = () => <EntityFormScreen entity={notificationEntity} />;
