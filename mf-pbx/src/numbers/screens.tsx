import { PbxListScreen } from '../shared/PbxListScreen';
import { numberEntity } from './numbers.entity';

/** /numbers: the list with add/edit in a dialog. */
export const List = () => <PbxListScreen entity={numberEntity} />;
