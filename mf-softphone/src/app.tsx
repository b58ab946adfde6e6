import { createRemoteApp } from '@tongdai/ui';
import manifest from './manifest';
import { PhoneStatus } from './PhoneStatus';

const lifecycles = createRemoteApp({ name: manifest.id, routes: manifest.routes, root: PhoneStatus });
export const { bootstrap, mount, unmount } = lifecycles;
