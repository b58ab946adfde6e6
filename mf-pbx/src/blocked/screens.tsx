import { EntityListScreen } from '@tongdai/ui';
import { blockedInEntity, blockedOutEntity } from './blocked.entity';

/** Blocked numbers, incoming and outgoing: the list with add/edit in a dialog. */
export const BlockedIn = () => <EntityListScreen entity={blockedInEntity} />;
export const BlockedOut = () => <EntityListScreen entity={blockedOutEntity} />;
