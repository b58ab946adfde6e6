import { PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { IVR_NS } from './i18n';

/** /ivr-details, /ivr-details/add, /ivr-details/edit/:id (SPEC §2). */
export const ivrRoutes: RouteDef[] = crudRoutes(paths.ivr, PERM.ivr, () => import('./screens'), feature);
export const ivrNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: IVR_NS }), paths.ivr.list, 'flowchart', PERM.ivr)];
