import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { inboundEntity } from './inbounds.entity';
import { ImportInboundButton } from './ImportInboundDialog';

/** /inbounds (with the destination filter and the import), /inbounds/add, /inbounds/edit/:id. */
export const List = () => <EntityListScreen entity={inboundEntity} toolbar={<ImportInboundButton />} />;
export const Form = () => <EntityFormScreen entity={inboundEntity} />;
