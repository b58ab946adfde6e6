import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { ivrEntity } from './ivr.entity';

/** /ivr-details, /ivr-details/add, /ivr-details/edit/:id. */
export const List = () => <EntityListScreen entity={ivrEntity} />;
export const Form = () => <EntityFormScreen entity={ivrEntity} />;
