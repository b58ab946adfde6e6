import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { hotlineCreateEntity, hotlineEntity } from './hotlines.entity';
import { switchboardEntity } from './switchboards.entity';

/** /etelecom/switchboards: the carrier trunks, add/edit in a dialog, status live. */
export const SwitchboardList = () => <EntityListScreen entity={switchboardEntity} />;

/** /etelecom/list-hotline: each row links to its calls in /etelecom/call-history. */
export const HotlineList = () => <EntityListScreen entity={hotlineEntity} />;

/** /etelecom/create-hotline: back to the list with a toast once added. */
export const HotlineCreate = () => <EntityFormScreen entity={hotlineCreateEntity} />;
