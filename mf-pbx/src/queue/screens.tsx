import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { queueEntity } from './queue.entity';

/** /queue, /queue/add, /queue/edit/:id. */
export const List = () => <EntityListScreen entity={queueEntity} />;
export const Form = () => <EntityFormScreen entity={queueEntity} />;
