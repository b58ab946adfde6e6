import { EntityListScreen } from '@tongdai/ui';
import { outboundEntity } from './outbound.entity';

/** /outbound: the rules in priority order, add/edit in a dialog. */
export const List = () => <EntityListScreen entity={outboundEntity} />;
