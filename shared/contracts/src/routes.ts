/**
 * Every SPEC §2 route, written once. Screens, manifests and cross-remote links read these;
 * SPEC_ROUTES (the route table the host checks remotes against) is built from them.
 */

/** The paths of one list screen with its add/edit screens or dialog. */
export interface CrudPaths {
  /** The list route. */
  list: string;
  /** Where "add" goes: a route, or the list with ?dialog=new. */
  add: string;
  /** Where "edit" of one row goes. */
  edit: (id: number | string) => string;
  /** The route patterns the remote registers (the list alone when add/edit is a dialog). */
  patterns: readonly string[];
  /** true: add and edit open a dialog on the list (?dialog=new|<id>), the SPEC has no route for them. */
  dialog: boolean;
}

/** `/x`, `/<one>/add`, `/<one>/edit/:id` (`one` defaults to the list: "/inbounds/add"; roles use "/role/add"). */
export function pagePaths(list: string, one: string = list): CrudPaths {
  return { list, add: `${one}/add`, edit: (id) => `${one}/edit/${id}`, patterns: [list, `${one}/add`, `${one}/edit/:id`], dialog: false };
}

/** One SPEC route: add and edit open a dialog on the list (?dialog=new|<id>). */
export function dialogPaths(list: string): CrudPaths {
  return { list, add: `${list}?dialog=new`, edit: (id) => `${list}?dialog=${id}`, patterns: [list], dialog: true };
}

/** The SPEC names a list and an add page but no edit route: edit opens a dialog on the list (?dialog=<id>). */
export function addPageEditDialog(list: string, add: string): CrudPaths {
  return { list, add, edit: (id) => `${list}?dialog=${id}`, patterns: [list, add], dialog: true };
}

/** A screen that only lists (a report): it has no add or edit of its own. */
export function listPaths(list: string): CrudPaths {
  return { list, add: list, edit: () => list, patterns: [list], dialog: false };
}

/** The CRUD areas of SPEC §2, by entity. */
export const paths = {
  customer: pagePaths('/customer'),
  role: pagePaths('/roles', '/role'),
  account: pagePaths('/accounts', '/account'),
  department: pagePaths('/departments', '/department'),
  team: pagePaths('/teams', '/team'),
  branch: pagePaths('/branchs', '/branch'),
  project: pagePaths('/projects', '/project'),
  dataSource: pagePaths('/data-sources', '/data-source'),
  profileStatus: pagePaths('/profile-status'),
  group: dialogPaths('/groups'),
  subscriber: pagePaths('/subscribers'),
  number: dialogPaths('/numbers'),
  inbound: pagePaths('/inbounds'),
  ringGroup: pagePaths('/ringgroup'),
  queue: pagePaths('/queue'),
  ivr: pagePaths('/ivr-details'),
  notification: pagePaths('/notifications'),
  condition: pagePaths('/conditions'),
  greeting: dialogPaths('/greeting'),
  moh: dialogPaths('/music-on-holds'),
  lastCall: dialogPaths('/last-calls'),
  outbound: dialogPaths('/outbound'),
  blockedIn: dialogPaths('/list-of-blocked-incoming-numbers'),
  blockedOut: dialogPaths('/list-of-blocked-out-numbers'),
  kpi: addPageEditDialog('/kpis', '/kpi/add'),
  timeGroup: { list: '/time-groups', add: '/time-groups/add', edit: (id: number | string, detailId: number | string) => `/time-groups/edit/${id}/${detailId}`, editPattern: '/time-groups/edit/:id/:detailId' },
  settings: { home: '/setting', tenant: (slug: string) => `/setting/${slug}`, user: (slug: string) => `/user-setting/${slug}`, patterns: ['/setting/:slug', '/user-setting/:slug', '/setting'] },
  /** Survey categories and questions (issue 33): add and edit in a dialog on the list, the SPEC names one route each. */
  surveyCategory: dialogPaths('/survey/categories'),
  surveyQuestion: dialogPaths('/survey/question'),
  /** Survey and marketing campaigns (issue 33): add and edit in a dialog on the list, contacts and state from its rows. */
  surveyCampaign: dialogPaths('/survey/campaign'),
  marketingCampaign: dialogPaths('/marketings/campaign'),
  dncNumber: dialogPaths('/marketings/dnc'),
  consent: dialogPaths('/marketings/consent'),
  /** Issue 39 (ADR 0065): the CRM's API keys, and the log of their call-event webhooks. */
  crmKey: dialogPaths('/integrations'),
  webhookDelivery: listPaths('/webhook-deliveries'),
  surveyCampaignStart: { pattern: '/survey/campaign/start/:id', to: (id: number | string) => `/survey/campaign/start/${id}` },
} as const;

/** Single screens of SPEC §2 (no add/edit of their own). */
export const screens = {
  login: '/login',
  signup: '/signup',
  dashboard: '/dashboard',
  callHistory: '/call-history',
  historyByDepartmentTeam: '/history-by-department-team',
  historyCdrByExten: '/history-cdr-by-exten',
  historySuccessCall: '/history-success-call',
  activityUserTenant: '/activity-user-tenant',
  kpiByDepartment: '/kpi-by-department',
  monitor: '/monitor',
  etelecomSwitchboards: '/etelecom/switchboards',
  etelecomCreateHotline: '/etelecom/create-hotline',
  etelecomListHotline: '/etelecom/list-hotline',
  etelecomCallHistory: '/etelecom/call-history',
  voiceSubscribers: '/voices/subscribers',
  voiceOtpList: '/voice-otp/list',
  voiceOtpNumber: '/voice-otp/number',
  fptCallHistory: '/reports/fpt/call-history',
} as const;

/** The query parameter of /login that names the address to go on to once logged in. */
export const LOGIN_NEXT = 'next';

/**
 * An address ?next= may name: a path of this app (one leading slash, no backslash or control
 * character a browser would turn into another host), never /login or /signup themselves; null otherwise.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(next)) return null;
  const pathname = next.split(/[?#]/, 1)[0];
  return pathname === screens.login || pathname === screens.signup ? null : next;
}

/** One parameter of a location's query ('?a=1&next=%2Fx'), decoded; null when absent or not decodable. */
function queryValue(search: string, name: string): string | null {
  const raw = new RegExp(`[?&]${name}=([^&#]*)`).exec(search)?.[1];
  try { return raw === undefined ? null : decodeURIComponent(raw.replace(/\+/g, ' ')); } catch { return null; }
}

/** Named route helpers: cross-remote links use these, never string literals. */
export const routes = {
  /**
   * /login; with `next` (the address a logged-out user asked for, or where a session expired), the
   * address the login goes on to. The dashboard, where a login goes anyway, and unsafe ones are left off.
   */
  login: (next?: string) => {
    const to = safeNext(next);
    return to && to !== '/' && to !== screens.dashboard ? `${screens.login}?${LOGIN_NEXT}=${encodeURIComponent(to)}` : screens.login;
  },
  /** Where a login goes on to: the ?next= of /login's query when safe, else the dashboard. */
  afterLogin: (search: string) => safeNext(queryValue(search, LOGIN_NEXT)) ?? screens.dashboard,
  signup: () => screens.signup,
  dashboard: () => screens.dashboard,
  monitor: () => screens.monitor,
  /** The wall in its big-screen mode. */
  wallboard: () => `${screens.monitor}?wall=1`,
  historyByDepartmentTeam: () => screens.historyByDepartmentTeam,
  historyCdrByExten: () => screens.historyCdrByExten,
  /** Calls through the tenant's hotlines; with a number: through that hotline only (?hotline=). */
  etelecomCallHistory: (hotline?: string) => (hotline ? `${screens.etelecomCallHistory}?hotline=${encodeURIComponent(hotline)}` : screens.etelecomCallHistory),
  customer: {
    list: () => paths.customer.list,
    add: () => paths.customer.add,
    edit: paths.customer.edit,
  },
} as const;

/**
 * Screens the product adds where SPEC §2 is silent, each for a rule the SPEC's screens cannot meet:
 * Decree 91's do-not-call lists and recorded consents (issue 33, ADR 0051); the CRM's API keys and their
 * webhook delivery log (issue 39, ADR 0065).
 */
const ADDED: ReadonlySet<keyof typeof paths> = new Set(['dncNumber', 'consent', 'crmKey', 'webhookDelivery']);

const patternsOf = (p: (typeof paths)[keyof typeof paths]): readonly string[] => {
  if ('patterns' in p) return p.patterns;
  if ('editPattern' in p) return [p.list, p.add, p.editPattern];
  return [p.pattern];
};
const entries = Object.entries(paths) as [keyof typeof paths, (typeof paths)[keyof typeof paths]][];

/** The route table of SPEC §2. */
export const SPEC_ROUTES: readonly string[] = [...Object.values(screens), ...entries.filter(([k]) => !ADDED.has(k)).flatMap(([, p]) => patternsOf(p))];

/** The routes added beyond SPEC §2 (ADDED above). */
export const ADDED_ROUTES: readonly string[] = entries.filter(([k]) => ADDED.has(k)).flatMap(([, p]) => patternsOf(p));

/** A route of the table the host checks remotes against: SPEC §2's and the few added to it; it refuses any other. */
export function isSpecRoute(path: string): boolean {
  return SPEC_ROUTES.includes(path) || ADDED_ROUTES.includes(path);
}
