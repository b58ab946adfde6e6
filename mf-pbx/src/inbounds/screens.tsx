import { PbxFormScreen } from '../shared/PbxFormScreen';
import { PbxListScreen } from '../shared/PbxListScreen';
import { inboundEntity } from './inbounds.entity';
import { ImportInboundButton } from './ImportInboundDialog';

/** /inbounds (with the destination filter and the import), /inbounds/add, /inbounds/edit/:id. */
export const List = () => <PbxListScreen entity={inboundEntity} toolbar={<ImportInboundButton />} />;
export const Form = () => <PbxFormScreen entity={inboundEntity} />;
