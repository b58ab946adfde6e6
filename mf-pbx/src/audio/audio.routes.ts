import { PERM, type AudioKind } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, dialogPaths, listRoute } from '../shared/routes';
import { AUDIO_KIND_NS } from './i18n';

/** SPEC §2 /greeting and /music-on-holds: one screen for both kinds; upload and rename open dialogs. */
export const audioPaths = { greeting: dialogPaths('/greeting'), moh: dialogPaths('/music-on-holds') } as const;
export const audioPerm = { greeting: PERM.greeting, moh: PERM.moh } as const;

const route = (kind: AudioKind): RouteDef[] =>
  listRoute(audioPaths[kind].list, audioPerm[kind], () => import('./screens').then((m) => ({ List: kind === 'greeting' ? m.GreetingList : m.MohList })));
const nav = (kind: AudioKind, icon: string): NavEntry[] => [areaNav(i18n.t('nav', { ns: AUDIO_KIND_NS[kind] }), audioPaths[kind].list, icon, audioPerm[kind])];

export const greetingRoutes = route('greeting');
export const mohRoutes = route('moh');
export const greetingNav = () => nav('greeting', 'speaker');
export const mohNav = () => nav('moh', 'music');
