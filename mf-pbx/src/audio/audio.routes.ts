import { PERM, paths, type AudioKind } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { areaNav, feature } from '../shared/routes';
import { AUDIO_KIND_NS } from './i18n';

/** SPEC §2 /greeting and /music-on-holds: one screen for both kinds; upload and rename open dialogs. */
const audioPaths = { greeting: paths.greeting, moh: paths.moh } as const;

const route = (kind: AudioKind): RouteDef[] =>
  crudRoutes(audioPaths[kind], PERM[kind], () => import('./screens').then((m) => ({ List: kind === 'greeting' ? m.GreetingList : m.MohList })), feature);
const nav = (kind: AudioKind, icon: string): NavEntry[] => [areaNav(i18n.t('nav', { ns: AUDIO_KIND_NS[kind] }), audioPaths[kind].list, icon, PERM[kind])];

export const greetingRoutes = route('greeting');
export const mohRoutes = route('moh');
export const greetingNav = () => nav('greeting', 'speaker');
export const mohNav = () => nav('moh', 'music');
