import { ADDED_ROUTES, SPEC_ROUTES, addPageEditDialog, dialogPaths, isSpecRoute, pagePaths, paths, routes, safeNext } from './routes';

/** SPEC §2, as the spec lists it: the table built from `paths` and `screens` must be exactly this. */
const SPEC_2 = [
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

describe('SPEC_ROUTES', () => {
  it('is exactly the SPEC §2 table, each route once', () => {
    expect([...SPEC_ROUTES].sort()).toEqual([...SPEC_2].sort());
    expect(new Set(SPEC_ROUTES).size).toBe(SPEC_ROUTES.length);
  });
  it('adds only the Decree 91 and CRM-integration screens the SPEC is silent on, and the host accepts them', () => {
    expect(ADDED_ROUTES).toEqual(['/marketings/dnc', '/marketings/consent', '/integrations', '/webhook-deliveries']);
    for (const route of ADDED_ROUTES) expect(isSpecRoute(route)).toBe(true);
  });
  it('refuses a path outside it', () => {
    expect(isSpecRoute('/branchs')).toBe(true);
    expect(isSpecRoute('/branches')).toBe(false);
  });
});

describe('crud paths', () => {
  it('page paths: list, /<one>/add, /<one>/edit/:id', () => {
    expect(paths.role.add).toBe('/role/add');
    expect(paths.role.edit(7)).toBe('/role/edit/7');
    expect(pagePaths('/inbounds').patterns).toEqual(['/inbounds', '/inbounds/add', '/inbounds/edit/:id']);
  });
  it('dialog paths: one route, add and edit in ?dialog=', () => {
    const p = dialogPaths('/numbers');
    expect([p.add, p.edit(3), p.patterns, p.dialog]).toEqual(['/numbers?dialog=new', '/numbers?dialog=3', ['/numbers'], true]);
  });
  it('an add page with edit in a dialog (KPIs: the SPEC names /kpi/add, no edit route)', () => {
    const p = addPageEditDialog('/kpis', '/kpi/add');
    expect([p.add, p.edit(4), p.patterns, p.dialog]).toEqual(['/kpi/add', '/kpis?dialog=4', ['/kpis', '/kpi/add'], true]);
    expect(paths.kpi.patterns).toEqual(['/kpis', '/kpi/add']);
  });
});

describe('the login goes on to the address asked for (?next=)', () => {
  it('names a page of the app, with its query, and leaves off the dashboard a login goes to anyway', () => {
    expect(routes.login('/customer?page=2')).toBe('/login?next=%2Fcustomer%3Fpage%3D2');
    expect(routes.login('/dashboard')).toBe('/login');
    expect(routes.login('/')).toBe('/login');
    expect(routes.login()).toBe('/login');
    expect(routes.afterLogin('?next=%2Fcustomer%3Fpage%3D2')).toBe('/customer?page=2');
    expect(routes.afterLogin('')).toBe('/dashboard');
  });

  it('never another host, a backslash or control character a browser reads as one, nor login or signup again', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/\t/evil.example', 'customer', '/login', '/login?next=%2Fx', '/signup', '', null, undefined]) {
      expect(safeNext(bad)).toBeNull();
    }
    expect(routes.afterLogin('?next=%2F%2Fevil.example')).toBe('/dashboard');
    expect(routes.login('//evil.example')).toBe('/login');
    expect(safeNext('/call-history?from=2026-11-01#top')).toBe('/call-history?from=2026-11-01#top');
  });
});
