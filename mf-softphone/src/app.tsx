import { createRemoteApp } from '@tongdai/ui';
import manifest from './manifest';
import { Softphone } from './ui/Softphone';

const lifecycles = createRemoteApp({ name: manifest.id, routes: manifest.routes, root: Softphone });
export const { bootstrap, mount, unmount } = lifecycles;
