import { PbxListScreen } from '../shared/PbxListScreen';
import { conditionEntity } from './conditions.entity';
import ConditionFormScreen from './ConditionFormScreen';

/** /conditions, /conditions/add, /conditions/edit/:id. */
export const List = () => <PbxListScreen entity={conditionEntity} />;
export const Form = ConditionFormScreen;
