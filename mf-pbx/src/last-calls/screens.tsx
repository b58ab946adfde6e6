import { PbxListScreen } from '../shared/PbxListScreen';
import { lastCallEntity } from './last-calls.entity';

/** /last-calls: the list with add/edit in a dialog. */
export const List = () => <PbxListScreen entity={lastCallEntity} />;
