import { cohortBucket, resolveRemotes } from '../registry';
import { checkRelease, releaseUrl, satisfies } from './release';

/** What fetch answers, as far as the code reads it (jsdom has no Response). */
const answer = (status: number, body?: unknown) =>
  Promise.resolve({ ok: status >= 200 && status < 300, status, json: () => (body === undefined ? Promise.reject(new SyntaxError('no body')) : Promise.resolve(body)) } as Response);

describe('satisfies (the platform contract against a remote\'s range)', () => {
  it.each([
    ['1.0.0', '^1.0.0', true],
    ['1.4.2', '^1.0.0', true],
    ['1.0.0', '^1.1.0', false],
    ['2.0.0', '^1.0.0', false],
    ['0.9.0', '^1.0.0', false],
    ['0.2.5', '^0.2.0', true],
    ['0.3.0', '^0.2.0', false],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.0', true],
    ['1.3.0', '~1.2.0', false],
    ['1.2.0', '1.2.0', true],
    ['1.2.1', '1.2.0', false],
    ['3.0.0', '>=1.0.0', true],
    ['1.0.0-rc.1', '^1.0.0', false],
    ['1.0.0', '^1.0.0-rc.1', true],
    ['7.1.0', '*', true],
    ['1.0.0', 'latest', false],
    ['one', '^1.0.0', false],
  ])('%s in %s: %s', (version, range, ok) => expect(satisfies(version, range)).toBe(ok));
});

describe('checkRelease (read before any of the remote\'s code runs)', () => {
  const release = (platform?: string) => ({ remote: 'mf_reports', package: 'mf-reports', version: '1.2.0', shared: {}, built_at: '2026-11-27T00:00:00Z', ...(platform && { platform }) });

  it('reads release.json beside the manifest, uncached', async () => {
    const asked: [string, RequestInit | undefined][] = [];
    const get = ((url: string, init?: RequestInit) => (asked.push([url, init]), answer(200, release('^1.0.0')))) as typeof fetch;
    expect(await checkRelease('https://cdn.example.vn/releases/mf-reports/1.2.0/mf-manifest.json', '1.3.0', get)).toEqual({ ok: true, release: release('^1.0.0') });
    expect(asked).toEqual([['https://cdn.example.vn/releases/mf-reports/1.2.0/release.json', { cache: 'no-cache' }]]);
    expect(releaseUrl('http://127.0.0.1:3003/mf-manifest.json')).toBe('http://127.0.0.1:3003/release.json');
  });

  it('refuses a release whose range the host\'s contract is not in, one that declares none, and a build without release.json', async () => {
    expect(await checkRelease('http://x/mf-manifest.json', '1.0.0', (() => answer(200, release('^2.0.0'))) as typeof fetch)).toEqual({ ok: false, reason: 'incompatible', release: release('^2.0.0') });
    expect(await checkRelease('http://x/mf-manifest.json', '1.0.0', (() => answer(200, release())) as typeof fetch)).toEqual({ ok: false, reason: 'incompatible', release: release() });
    expect(await checkRelease('http://x/mf-manifest.json', '1.0.0', (() => answer(404)) as typeof fetch)).toEqual({ ok: false, reason: 'incompatible', release: null });
  });

  it('a server or network failure is the area being down (retried), not an incompatible release', async () => {
    expect(await checkRelease('http://x/mf-manifest.json', '1.0.0', (() => answer(503)) as typeof fetch)).toEqual({ ok: false, reason: 'unreachable' });
    expect(await checkRelease('http://x/mf-manifest.json', '1.0.0', (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch)).toEqual({ ok: false, reason: 'unreachable' });
  });
});

describe('resolveRemotes (the registry\'s releases over the configured remotes)', () => {
  const config = { apis: { cp: '', identity: '', pbx: '', tenant: '', telecom: '' }, remotes: { mf_crm: 'http://127.0.0.1:3001/mf-manifest.json', mf_reports: 'http://127.0.0.1:3003/mf-manifest.json' } };
  const registry = { schema: 1, updated_at: '', remotes: { mf_reports: { version: '1.2.0', entry: '/releases/mf-reports/1.2.0/mf-manifest.json', platform: '^1.0.0' }, mf_unknown: { version: '1', entry: '/x', platform: '*' } } };

  it('without a registry: the config\'s remotes', async () => {
    expect(await resolveRemotes(config, (() => Promise.reject(new Error('not asked'))) as typeof fetch)).toBe(config.remotes);
  });

  it('a listed remote runs its registered release (read against the page\'s origin); the others and unknown names are left', async () => {
    const get = ((url: string) => (url === 'https://tongdai.vn/registry.json' ? answer(200, registry) : answer(404))) as typeof fetch;
    expect(await resolveRemotes({ ...config, registry: '/registry.json' }, get, 'https://tongdai.vn')).toEqual({
      mf_crm: 'http://127.0.0.1:3001/mf-manifest.json',
      mf_reports: 'https://tongdai.vn/releases/mf-reports/1.2.0/mf-manifest.json',
    });
  });

  it('a registry that cannot be read leaves the configured remotes (the page still starts); none yet (404) is no error', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await resolveRemotes({ ...config, registry: '/registry.json' }, (() => answer(404)) as typeof fetch, 'https://tongdai.vn')).toEqual(config.remotes);
    expect(error).not.toHaveBeenCalled();
    expect(await resolveRemotes({ ...config, registry: '/registry.json' }, (() => answer(500)) as typeof fetch, 'https://tongdai.vn')).toEqual(config.remotes);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});

describe('a canary (a share of users on another release, the same ones at every load)', () => {
  const config = { apis: { cp: '', identity: '', pbx: '', tenant: '', telecom: '' }, remotes: { mf_reports: 'http://127.0.0.1:3003/mf-manifest.json' } };
  const registry = (percent: number) => ({
    schema: 1,
    updated_at: '',
    remotes: { mf_reports: { version: '1.2.0', entry: '/releases/mf-reports/1.2.0/mf-manifest.json', platform: '^1.0.0', canary: { version: '1.3.0', entry: '/releases/mf-reports/1.3.0/mf-manifest.json', platform: '^1.0.0', percent } } },
  });
  const serving = (body: unknown) => (() => answer(200, body)) as typeof fetch;
  const users = Array.from({ length: 1000 }, (_, i) => `demo/user${i}`);

  it('runs for about its share of users, each always on the same side; 99 % nearly everyone', async () => {
    const side = async (who: string, percent: number) => (await resolveRemotes({ ...config, registry: '/registry.json' }, serving(registry(percent)), 'https://tongdai.vn', who)).mf_reports;
    const canaried = (await Promise.all(users.map((u) => side(u, 10)))).filter((e) => e.includes('/1.3.0/')).length;
    expect(canaried).toBeGreaterThan(60);
    expect(canaried).toBeLessThan(140);
    expect(await side('demo/user7', 10)).toBe(await side('demo/user7', 10));
    expect((await Promise.all(users.slice(0, 200).map((u) => side(u, 99)))).filter((e) => e.includes('/1.3.0/')).length).toBeGreaterThan(190);
  });

  it('one user is not in every remote\'s first share', () => {
    const both = users.filter((u) => cohortBucket(u, 'mf_reports') < 10 && cohortBucket(u, 'mf_crm') < 10).length;
    expect(both).toBeLessThan(40);
  });
});
