import { FEATURES, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';
import { reportScreen } from '../report-screen';

// No permission on the routes: every user has call history; the API decides whose calls they see.
const feature = FEATURES.report;

export const historyRoutes: RouteDef[] = [
  { path: screens.callHistory, loader: reportScreen(() => import('./screens').then((m) => m.CallHistoryScreen)), feature },
  { path: screens.historySuccessCall, loader: reportScreen(() => import('./screens').then((m) => m.SuccessCallsScreen)), feature },
  { path: screens.etelecomCallHistory, loader: reportScreen(() => import('./screens').then((m) => m.HotlineCallsScreen)), feature },
  { path: screens.fptCallHistory, loader: reportScreen(() => import('../carrier/CarrierScreen').then((m) => m.CarrierScreen)), feature },
];

export const historyNav = (): NavEntry[] => [
  { label: i18n.t('nav.callHistory', { ns: NS }), path: screens.callHistory, icon: 'history', feature },
  { label: i18n.t('nav.successCalls', { ns: NS }), path: screens.historySuccessCall, icon: 'call', feature },
  { label: i18n.t('nav.carrier', { ns: NS }), path: screens.fptCallHistory, icon: 'call', feature },
  { label: i18n.t('nav.hotlineCalls', { ns: NS }), path: screens.etelecomCallHistory, icon: 'call', feature },
];
