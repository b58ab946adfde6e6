import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { ringGroupEntity } from './ringgroup.entity';

/** /ringgroup, /ringgroup/add, /ringgroup/edit/:id. */
export const List = () => <EntityListScreen entity={ringGroupEntity} />;
export const Form = () => <EntityFormScreen entity={ringGroupEntity} />;
