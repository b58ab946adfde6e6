import type { RuntimeConfig } from '@tongdai/contracts';
import { getOrCreateGlobalSingleton } from './global';

const holder = getOrCreateGlobalSingleton<{ config: RuntimeConfig | null }>('config', () => ({ config: null }));

/** Host only: the config.json read at start-up. */
export function setRuntimeConfig(config: RuntimeConfig): void {
  holder.config = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!holder.config) throw new Error('Runtime config not loaded yet');
  return holder.config;
}
