import { PERM, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { VOICES_NS } from './i18n';

/** /voices/subscribers (SPEC §2): the extensions as the telecom side sees them; read with subscriber.view. */
export const voicesRoutes: RouteDef[] = [
  { path: screens.voiceSubscribers, loader: () => import('./VoiceSubscribersScreen'), permission: PERM.subscriber.view, feature },
];
export const voicesNav = (): NavEntry[] => [areaNav(i18n.t('nav', { ns: VOICES_NS }), screens.voiceSubscribers, 'call', PERM.subscriber)];
