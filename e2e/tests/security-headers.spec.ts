import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO, DEMO_AGENT, LoginPage } from '../pages/LoginPage.ts';
import { SettingsPage } from '../pages/SettingsPages.ts';
import { newTenant, signupViaApi } from '../pages/SignupPage.ts';
import { SoftphonePage } from '../pages/SoftphonePage.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.ts';
import { API_URL, WEB_PORT } from '../support/ports.ts';

// Issue 12 item 8 (docs/adr/0020): the UI's servers send a Content-Security-Policy built from the
// host's config.json, and the product still loads every remote and makes a call under it.
test.use({ launchOptions: { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] } });

const WEB = `http://127.0.0.1:${WEB_PORT}`;
const directives = (csp: string) => Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));

test('the host, its deep links, config.json, every remote and the API answer with the security headers', async ({ request }) => {
  const config = await (await request.get(`${WEB}/config.json`)).json();
  const remoteOrigins = Object.values<string>(config.remotes).map((u) => new URL(u).origin);
  expect(remoteOrigins).toHaveLength(5);

  for (const url of [`${WEB}/`, `${WEB}/customer`, `${WEB}/config.json`, ...Object.values<string>(config.remotes)]) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    expect(res.headers(), url).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin', 'x-frame-options': 'DENY' });
  }
  const csp = directives((await request.get(`${WEB}/customer`)).headers()['content-security-policy']);
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  // 'self', the hash of the host's inline theme script, the remotes: nothing else may run.
  expect(csp['script-src']).toEqual(["'self'", expect.stringMatching(/^'sha256-/), ...remoteOrigins]);
  expect(csp['connect-src']).toEqual(expect.arrayContaining([API_URL, API_URL.replace('http', 'ws'), ...remoteOrigins]));

  const api = await request.get(`${API_URL}/health`);
  expect(api.headers()).toMatchObject({ 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" });
});

/** Every CSP violation any page of the context reports (event and console), collected in Node. */
async function watchViolations(context: BrowserContext, into: string[]): Promise<void> {
  await context.exposeBinding('__cspViolation', (_source, text: string) => void into.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  context.on('console', (msg) => {
    if (/Content Security Policy|Refused to (load|connect|execute|apply)/i.test(msg.text())) into.push(msg.text());
  });
}

async function phoneOf(browser: Browser, who: typeof DEMO, violations: string[]): Promise<{ page: Page; phone: SoftphonePage }> {
  const context = await browser.newContext({ baseURL: WEB, permissions: ['microphone'] });
  await watchViolations(context, violations);
  const page = await context.newPage();
  await new LoginPage(page).loginAs(who);
  return { page, phone: new SoftphonePage(page) };
}

test('under the CSP: every remote loads, the events and SIP WebSockets connect, a call is answered with audio — and nothing is refused', async ({ browser }) => {
  const violations: string[] = [];
  const a = await phoneOf(browser, DEMO, violations); // extension 101
  const b = await phoneOf(browser, DEMO_AGENT, violations); // extension 102
  try {
    await a.phone.expectReady();
    await b.phone.expectReady();
    // Screens of the CRM and PBX remotes and the host's settings (the softphone remote is always there).
    for (const [nav, screen] of [['customer', 'customer-list'], ['roles', 'role-list'], ['subscribers', 'subscriber-list'], ['inbounds', 'inbound-list'], ['ringgroup', 'ringgroup-list']]) {
      await a.page.getByTestId(`nav-${nav}`).click();
      await expect(a.page.getByTestId(screen)).toBeVisible();
    }
    await a.page.getByTestId('settings-link').click();
    await expect(a.page.getByTestId('settings-index')).toBeVisible();

    await a.phone.dial('102');
    await expect(b.phone.incoming()).toBeVisible();
    await b.phone.answer();
    await expect(a.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await expect(b.phone.badge()).toHaveAttribute('data-media-state', 'connected');
    await a.phone.hangup();
    await b.phone.expectState('CALL_ENDED');
    expect(violations).toEqual([]);
  } finally {
    await a.page.context().close();
    await b.page.context().close();
  }
});

test('under the CSP: a logo chosen in the settings is previewed (blob:), saved, and shown from the tenant API after a reload', async ({ page, context }) => {
  const violations: string[] = [];
  await watchViolations(context, violations);
  // A tenant of its own: its logo disturbs no other spec.
  const tenant = newTenant('csp');
  await signupViaApi(tenant);
  await new LoginPage(page).loginAs({ maDn: tenant.ma_dn, username: tenant.username, password: tenant.password });
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.openCard('site');
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#0f6cbd"/></svg>';
  await settings.field('logo').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
  await settings.save();
  await page.reload();
  const logo = page.getByTestId('site-logo');
  await expect(logo).toHaveAttribute('src', new RegExp(`^${API_URL}/`));
  // Loaded, not merely laid out: a refused image has no natural size.
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect(violations).toEqual([]);
});
