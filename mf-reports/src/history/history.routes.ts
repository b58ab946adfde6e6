import { FEATURES, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';

// No permission on the routes: every user has call history; the API decides whose calls they see.
const feature = FEATURES.report;

export const historyRoutes: RouteDef[] = [
  { path: screens.callHistory, loader: () => import('./screens').then((m) => ({ default: m.CallHistoryScreen })), feature },
  { path: screens.historySuccessCall, loader: () => import('./screens').then((m) => ({ default: m.SuccessCallsScreen })), feature },
  { path: screens.etelecomCallHistory, loader: () => import('./screens').then((m) => ({ default: m.HotlineCallsScreen })), feature },
  { path: screens.fptCallHistory, loader: () => import('../carrier/CarrierScreen').then((m) => ({ default: m.CarrierScreen })), feature },
];

export const historyNav = (): NavEntry[] => [
  { label: i18n.t('nav.callHistory', { ns: NS }), path: screens.callHistory, icon: 'history', feature },
  { label: i18n.t('nav.successCalls', { ns: NS }), path: screens.historySuccessCall, icon: 'call', feature },
  { label: i18n.t('nav.carrier', { ns: NS }), path: screens.fptCallHistory, icon: 'call', feature },
  { label: i18n.t('nav.hotlineCalls', { ns: NS }), path: screens.etelecomCallHistory, icon: 'call', feature },
];
