import { PERM } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, areaRoutes, pagePaths } from '../shared/routes';
import { IVR_NS } from './i18n';

/** /ivr-details, /ivr-details/add, /ivr-details/edit/:id (SPEC §2). */
export const ivrPaths = pagePaths('/ivr-details');
export const ivrRoutes: RouteDef[] = areaRoutes(ivrPaths.list, PERM.ivr, () => import('./screens'));
export const ivrNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: IVR_NS }), ivrPaths.list, 'flowchart', PERM.ivr)];
