import { EntityListScreen } from '@tongdai/ui';
import { lastCallEntity } from './last-calls.entity';

/** /last-calls: the list with add/edit in a dialog. */
export const List = () => <EntityListScreen entity={lastCallEntity} />;
