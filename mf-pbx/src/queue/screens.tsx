import { PbxFormScreen } from '../shared/PbxFormScreen';
import { PbxListScreen } from '../shared/PbxListScreen';
import { queueEntity } from './queue.entity';

/** /queue, /queue/add, /queue/edit/:id. */
export const List = () => <PbxListScreen entity={queueEntity} />;
export const Form = () => <PbxFormScreen entity={queueEntity} />;
