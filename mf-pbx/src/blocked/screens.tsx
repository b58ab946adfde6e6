import { PbxListScreen } from '../shared/PbxListScreen';
import { blockedInEntity, blockedOutEntity } from './blocked.entity';

/** Blocked numbers, incoming and outgoing: the list with add/edit in a dialog. */
export const BlockedIn = () => <PbxListScreen entity={blockedInEntity} />;
export const BlockedOut = () => <PbxListScreen entity={blockedOutEntity} />;
