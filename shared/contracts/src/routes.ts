/**
 * Named route helpers: cross-remote links use these, never string literals.
 * SPEC_ROUTES is the route table of SPEC §2; the host refuses a route outside it.
 */
export const routes = {
  login: () => '/login',
  signup: () => '/signup',
  dashboard: () => '/dashboard',
  customer: {
    list: () => '/customer',
    add: () => '/customer/add',
    edit: (id: number | string) => `/customer/edit/${id}`,
  },
} as const;

export const SPEC_ROUTES: readonly string[] = [
  '/login', '/signup', '/dashboard',
  '/customer', '/customer/add', '/customer/edit/:id',
  '/setting/:slug', '/user-setting/:slug', '/setting',
  '/numbers', '/call-history',
  '/roles', '/role/add', '/role/edit/:id',
  '/accounts', '/account/add', '/account/edit/:id',
  '/departments', '/department/add', '/department/edit/:id',
  '/teams', '/team/add', '/team/edit/:id',
  '/history-by-department-team', '/history-cdr-by-exten', '/history-success-call', '/activity-user-tenant',
  '/kpis', '/kpi/add', '/kpi-by-department',
  '/projects', '/project/add', '/project/edit/:id',
  '/data-sources', '/data-source/add', '/data-source/edit/:id',
  '/profile-status', '/profile-status/add', '/profile-status/edit/:id',
  '/groups',
  '/subscribers', '/subscribers/add', '/subscribers/edit/:id',
  '/inbounds', '/inbounds/add', '/inbounds/edit/:id',
  '/ringgroup', '/ringgroup/add', '/ringgroup/edit/:id',
  '/queue', '/queue/add', '/queue/edit/:id',
  '/ivr-details', '/ivr-details/add', '/ivr-details/edit/:id',
  '/notifications', '/notifications/add', '/notifications/edit/:id',
  '/conditions', '/conditions/add', '/conditions/edit/:id',
  '/time-groups', '/time-groups/add', '/time-groups/edit/:id/:detailId',
  '/greeting', '/music-on-holds', '/last-calls', '/outbound',
  '/list-of-blocked-incoming-numbers', '/list-of-blocked-out-numbers', '/monitor',
  '/etelecom/switchboards', '/etelecom/create-hotline', '/etelecom/list-hotline', '/etelecom/call-history',
  '/voices/subscribers', '/marketings/campaign',
  '/survey/categories', '/survey/question', '/survey/campaign', '/survey/campaign/start/:id',
  '/voice-otp/list', '/voice-otp/number', '/reports/fpt/call-history',
  '/branchs', '/branch/add', '/branch/edit/:id',
];

export function isSpecRoute(path: string): boolean {
  return SPEC_ROUTES.includes(path);
}
