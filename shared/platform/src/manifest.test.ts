import { defineRemoteManifest, isRemoteManifest, matchPath } from './manifest';

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
