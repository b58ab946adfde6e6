import { createRemoteApp } from '@tongdai/ui';
import manifest from './manifest';

const lifecycles = createRemoteApp({ name: manifest.id, routes: manifest.routes });
export const { bootstrap, mount, unmount } = lifecycles;
