import { defineRemoteManifest } from '@tongdai/platform';
import { acceptManifests, findManifestProblems } from './validate-manifests';

const screen = () => Promise.resolve({ default: () => null });
const m = (id: string, paths: string[]) =>
  defineRemoteManifest({ id, title: id, routes: paths.map((path) => ({ path, loader: screen })), nav: [], lifecycles: () => Promise.reject(new Error('unused')) });

describe('remote manifest validation', () => {
  it('accepts distinct routes of the spec table', () => {
    expect(findManifestProblems([m('a', ['/customer', '/customer/edit/:id']), m('b', ['/queue'])], ['/dashboard'])).toEqual([]);
  });
  it('refuses two remotes claiming one route, and a remote claiming a host route', () => {
    expect(findManifestProblems([m('a', ['/customer']), m('b', ['/customer', '/dashboard'])], ['/dashboard'])).toEqual([
      { remote: 'b', path: '/customer', reason: 'duplicate' },
      { remote: 'b', path: '/dashboard', reason: 'duplicate' },
    ]);
  });
  it('refuses a route outside the spec', () => {
    expect(findManifestProblems([m('a', ['/khach-hang'])])).toEqual([{ remote: 'a', path: '/khach-hang', reason: 'not-in-spec' }]);
  });
  it('throws in development, drops only the bad route in production', () => {
    const input = [m('a', ['/customer']), m('b', ['/customer', '/queue'])];
    expect(() => acceptManifests(input, [], true)).toThrow(/b \/customer: duplicate/);
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(acceptManifests(input, [], false).map((x) => x.routes.map((r) => r.path))).toEqual([['/customer'], ['/queue']]);
    spy.mockRestore();
  });
});
