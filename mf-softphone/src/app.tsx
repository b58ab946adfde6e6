import { createRemoteApp } from '@tongdai/ui';
import { Softphone } from './ui/Softphone';

// Not imported from the manifest, which loads this file lazily; the softphone owns no route.
const lifecycles = createRemoteApp({ name: 'mf_softphone', routes: [], root: Softphone });
export const { bootstrap, mount, unmount } = lifecycles;
