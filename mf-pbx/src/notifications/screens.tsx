import { PbxFormScreen } from '../shared/PbxFormScreen';
import { PbxListScreen } from '../shared/PbxListScreen';
import { notificationEntity } from './notifications.entity';

/** /notifications, /notifications/add, /notifications/edit/:id. */
export const List = () => <PbxListScreen entity={notificationEntity} />;
export const Form = () => <PbxFormScreen entity={notificationEntity} />;
