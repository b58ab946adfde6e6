import type { ComponentType } from 'react';
import type { RouteDef } from '@tongdai/platform';

/**
 * The loader of a screen whose figures come from the reports' database (history, summaries, user
 * activity, KPIs): the lag warning comes with it (ADR 0058). Not the live wall, which reads the
 * primary. Both lazy: the manifest, which the host loads first, stays free of them.
 */
export const reportScreen = (load: () => Promise<ComponentType>): RouteDef['loader'] => () =>
  Promise.all([load(), import('./lag-notice')]).then(([Screen, { withLagNotice }]) => ({ default: withLagNotice(Screen) }));
