import { PERM, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { feature } from '../shared/routes';
import { TELECOM_NS } from './i18n';

const screen = (name: 'SwitchboardList' | 'HotlineList' | 'HotlineCreate') => () => import('./screens').then((m) => ({ default: m[name] }));

/** /etelecom/switchboards, /etelecom/list-hotline (add/edit of a switchboard and edit of a hotline in a dialog), /etelecom/create-hotline. */
export const telecomRoutes: RouteDef[] = [
  { path: screens.etelecomSwitchboards, loader: screen('SwitchboardList'), permission: PERM.telecom.view, feature },
  { path: screens.etelecomListHotline, loader: screen('HotlineList'), permission: PERM.telecom.view, feature },
  { path: screens.etelecomCreateHotline, loader: screen('HotlineCreate'), permission: PERM.telecom.create, feature },
];

/** Under "Viễn thông" in the menu. */
export const telecomNav = (): NavEntry[] => {
  const t = (key: string) => i18n.t(key, { ns: TELECOM_NS });
  const group = t('group');
  return [
    { label: t('switchboard.nav'), path: screens.etelecomSwitchboards, icon: 'server', permission: PERM.telecom.view, feature, group },
    { label: t('hotline.addTitle'), path: screens.etelecomCreateHotline, icon: 'call-add', permission: PERM.telecom.create, feature, group },
    { label: t('hotline.nav'), path: screens.etelecomListHotline, icon: 'call', permission: PERM.telecom.view, feature, group },
  ];
};
