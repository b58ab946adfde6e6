import { createRoot } from 'react-dom/client';
import { registerRemotes } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@tongdai/contracts';
import { setRuntimeConfig } from '@tongdai/platform';
import './i18n';
import { HostRoot } from './HostRoot';

/** The host knows no remote at build time: config.json names them and the five API bases. */
async function start() {
  const res = await fetch('/config.json', { cache: 'no-store' });
  const config = (await res.json()) as RuntimeConfig;
  setRuntimeConfig(config);
  registerRemotes(Object.entries(config.remotes).map(([name, entry]) => ({ name, entry })));
  createRoot(document.getElementById('root')!, { identifierPrefix: 'host-' }).render(<HostRoot />);
}

void start();
