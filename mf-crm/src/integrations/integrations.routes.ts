import { PERM, paths } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { INTEGRATIONS_NS } from './i18n';

const screen = (name: 'Integrations' | 'IntegrationDeliveries') => () => import('./screens').then((m) => ({ default: m[name] }));

/** /integrations and its delivery log (issue 39): integrations.manage, no purchased feature. */
export const integrationsRoutes: RouteDef[] = [
  { path: paths.crmKey.list, loader: screen('Integrations'), permission: PERM.integrations.manage },
  { path: paths.webhookDelivery.list, loader: screen('IntegrationDeliveries'), permission: PERM.integrations.manage },
];

export const integrationsNav = (): NavEntry[] => {
  const t = (key: string) => i18n.t(key, { ns: INTEGRATIONS_NS });
  return [
    { label: t('nav'), path: paths.crmKey.list, icon: 'plug', permission: PERM.integrations.manage },
    { label: t('navLog'), path: paths.webhookDelivery.list, icon: 'history', permission: PERM.integrations.manage },
  ];
};
