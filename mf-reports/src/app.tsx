import { createRemoteApp } from '@tongdai/ui';

// No route yet (see manifest.ts); not imported from the manifest, which loads this file lazily.
const lifecycles = createRemoteApp({ name: 'mf_reports', routes: [] });
export const { bootstrap, mount, unmount } = lifecycles;
