import { PbxFormScreen } from '../shared/PbxFormScreen';
import { PbxListScreen } from '../shared/PbxListScreen';
import { ivrEntity } from './ivr.entity';

/** /ivr-details, /ivr-details/add, /ivr-details/edit/:id. */
export const List = () => <PbxListScreen entity={ivrEntity} />;
export const Form = () => <PbxFormScreen entity={ivrEntity} />;
