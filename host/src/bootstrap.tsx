import { createRoot } from 'react-dom/client';
import { registerRemotes } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@tongdai/contracts';
import { setRuntimeConfig } from '@tongdai/platform';
import { resolveRemotes } from './registry';
import './i18n';
import { HostRoot } from './HostRoot';

/**
 * The host knows no remote at build time: config.json names them and the five API bases, and the
 * registry (when it names one) which release of each runs (ADR 0053): a promotion or a rollback is
 * seen at the next start of the page.
 */
async function start() {
  const res = await fetch('/config.json', { cache: 'no-store' });
  const loaded = (await res.json()) as RuntimeConfig;
  const config = { ...loaded, remotes: await resolveRemotes(loaded) };
  setRuntimeConfig(config);
  registerRemotes(Object.entries(config.remotes).map(([name, entry]) => ({ name, entry })));
  createRoot(document.getElementById('root')!, { identifierPrefix: 'host-' }).render(<HostRoot />);
}

void start();
