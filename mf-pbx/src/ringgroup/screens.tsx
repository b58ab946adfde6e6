import { PbxFormScreen } from '../shared/PbxFormScreen';
import { PbxListScreen } from '../shared/PbxListScreen';
import { ringGroupEntity } from './ringgroup.entity';

/** /ringgroup, /ringgroup/add, /ringgroup/edit/:id. */
export const List = () => <PbxListScreen entity={ringGroupEntity} />;
export const Form = () => <PbxFormScreen entity={ringGroupEntity} />;
