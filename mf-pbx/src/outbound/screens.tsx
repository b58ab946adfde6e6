import { PbxListScreen } from '../shared/PbxListScreen';
import { outboundEntity } from './outbound.entity';

/** /outbound: the rules in priority order, add/edit in a dialog. */
export const List = () => <PbxListScreen entity={outboundEntity} />;
