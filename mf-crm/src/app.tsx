import { createRemoteApp } from '@tongdai/ui';
import { routes } from './areas';

// The routes, not the manifest: the manifest loads this file lazily.
const lifecycles = createRemoteApp({ name: 'mf_crm', routes });
export const { bootstrap, mount, unmount } = lifecycles;
