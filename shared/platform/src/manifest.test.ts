import { dialogPaths, pagePaths } from '@tongdai/contracts';
import { crudRoutes, defineRemoteManifest, isRemoteManifest, matchPath } from './manifest';

describe('matchPath', () => {
  it.each([
    ['/customer', '/customer', true],
    ['/customer/edit/:id', '/customer/edit/12', true],
    ['/customer/edit/:id', '/customer/edit', false],
    ['/customer', '/customer/add', false],
    ['/time-groups/edit/:id/:detailId', '/time-groups/edit/1/2', true],
  ])('%s ~ %s → %s', (pattern, path, expected) => {
    expect(matchPath(pattern, path)).toBe(expected);
  });
});

describe('remote manifests', () => {
  it('are recognised by their tag, not by instanceof', () => {
    const m = defineRemoteManifest({ id: 'x', title: 'X', routes: [], nav: [], lifecycles: () => Promise.reject(new Error('x')) });
    expect(isRemoteManifest(m)).toBe(true);
    expect(isRemoteManifest({ ...m, version: 2 })).toBe(false);
    expect(isRemoteManifest(null)).toBe(false);
  });
});

describe('crudRoutes', () => {
  const perm = { view: 'x.view', create: 'x.create', edit: 'x.edit' };
  const List = () => null;
  const Form = () => null;
  const screens = () => Promise.resolve({ List, Form });

  it('registers list, add and edit with their permissions and feature; add/edit load the form', async () => {
    const r = crudRoutes(pagePaths('/roles', '/role'), perm, screens, 'crm');
    expect(r.map((x) => [x.path, x.permission, x.feature])).toEqual([
      ['/roles', 'x.view', 'crm'], ['/role/add', 'x.create', 'crm'], ['/role/edit/:id', 'x.edit', 'crm'],
    ]);
    expect((await r[0].loader()).default).toBe(List);
    expect((await r[2].loader()).default).toBe(Form);
  });

  it('a dialog area has its list route only', () => {
    expect(crudRoutes(dialogPaths('/numbers'), perm, screens).map((x) => x.path)).toEqual(['/numbers']);
  });
});
