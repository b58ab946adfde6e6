import { setRuntimeConfig } from '@tongdai/platform';
import { checkForUpdates, updates$ } from './updates';

const apis = { cp: '', identity: '', pbx: '', tenant: '', telecom: '' };
const registry = (reports: string) => ({
  schema: 1,
  updated_at: '',
  remotes: { mf_reports: { version: reports, entry: `/releases/mf-reports/${reports}/mf-manifest.json`, platform: '^1.0.0' } },
});
/** fetch as far as the code reads it (jsdom has no Response). */
const serving = (body: unknown, status = 200) => (() => Promise.resolve({ ok: status < 300, status, json: () => Promise.resolve(body) } as Response)) as typeof fetch;

describe('a release promoted while the page is open', () => {
  const running = { mf_crm: 'http://localhost/crm/mf-manifest.json', mf_reports: 'http://localhost/releases/mf-reports/1.0.0/mf-manifest.json' };

  it('is announced by the remote whose registered entry is no longer the one running, and cleared when it is rolled back', async () => {
    setRuntimeConfig({ apis, remotes: running, registry: '/registry.json' });
    expect(await checkForUpdates(serving(registry('1.0.0')))).toEqual([]);
    expect(updates$.getValue()).toEqual([]);
    expect(await checkForUpdates(serving(registry('1.1.0')))).toEqual(['mf_reports']);
    expect(updates$.getValue()).toEqual(['mf_reports']);
    expect(await checkForUpdates(serving(registry('1.0.0')))).toEqual([]);
    expect(updates$.getValue()).toEqual([]);
  });

  it('a registry that cannot be read announces nothing; no registry, nothing is asked', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    setRuntimeConfig({ apis, remotes: running, registry: '/registry.json' });
    expect(await checkForUpdates(serving(null, 503))).toEqual([]);
    setRuntimeConfig({ apis, remotes: running });
    expect(await checkForUpdates((() => Promise.reject(new Error('not asked'))) as typeof fetch)).toEqual([]);
    error.mockRestore();
  });
});
