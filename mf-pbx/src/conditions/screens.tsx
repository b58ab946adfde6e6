import { EntityListScreen } from '@tongdai/ui';
import { conditionEntity } from './conditions.entity';
import ConditionFormScreen from './ConditionFormScreen';

/** /conditions, /conditions/add, /conditions/edit/:id. */
export const List = () => <EntityListScreen entity={conditionEntity} />;
export const Form = ConditionFormScreen;
