import { EntityListScreen } from '@tongdai/ui';
import { numberEntity } from './numbers.entity';

/** /numbers: the list with add/edit in a dialog. */
export const List = () => <EntityListScreen entity={numberEntity} />;
