import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, verify } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { GOOGLE_SHEET_MSG, GoogleSheetError, readGoogleSheet, serviceAccountOf } from './google-sheet';

/**
 * The real Sheets client (@googleapis/sheets, a service account's JWT) against a local server that
 * answers like Google (the OAuth token endpoint, then spreadsheets.values.get): the only stand-in.
 * The server checks what Google checks: the assertion is signed with the account's key and names it,
 * and the API call carries the token it handed out.
 */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const account = { client_email: 'tongdai@du-an.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
const TOKEN = 'ya29.stand-in';
const SHEETS: Record<string, Record<string, string[][]>> = {
  'sheet-ok': { 'Danh sách': [['Họ tên', 'Số điện thoại', 'Gói'], ['Nguyễn Văn An', '0912 345 611', 'Cơ bản'], ['Trần Thị Bình', '+84912345612']] },
};

let server: Server;
let endpoint: string;
const seen: string[] = [];

/** A JWT assertion signed with the account's key (RS256), and its claims. */
function claimsOf(assertion: string): Record<string, unknown> | null {
  const [h, p, sig] = assertion.split('.');
  if (!h || !p || !sig) return null;
  const ok = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(sig, 'base64url'));
  return ok ? JSON.parse(Buffer.from(p, 'base64url').toString()) : null;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push(`${req.method} ${url.pathname}`);
      const json = (status: number, o: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(o));
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(body);
        const claims = claimsOf(form.get('assertion') ?? '');
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || claims?.iss !== account.client_email || !String(claims?.scope).includes('spreadsheets.readonly')) {
          return json(400, { error: 'invalid_grant' });
        }
        return json(200, { access_token: TOKEN, expires_in: 3600, token_type: 'Bearer' });
      }
      const m = /^\/v4\/spreadsheets\/([^/]+)\/values\/(.+)$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
        const [id, range] = [decodeURIComponent(m[1]), decodeURIComponent(m[2]).replace(/^'(.*)'$/, '$1').replace(/''/g, "'")];
        if (id === 'sheet-private') return json(403, { error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } });
        if (!SHEETS[id]) return json(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
        if (!SHEETS[id][range]) return json(400, { error: { code: 400, message: `Unable to parse range: ${range}`, status: 'INVALID_ARGUMENT' } });
        return json(200, { range, majorDimension: 'ROWS', values: SHEETS[id][range] });
      }
      json(404, { error: { code: 404 } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('a Google Sheet read through the real client', () => {
  it("gets a token with the account's signed assertion, then the tab's rows as text", async () => {
    const rows = await readGoogleSheet(account, 'sheet-ok', 'Danh sách', { endpoint });
    expect(rows).toEqual([['Họ tên', 'Số điện thoại', 'Gói'], ['Nguyễn Văn An', '0912 345 611', 'Cơ bản'], ['Trần Thị Bình', '+84912345612']]);
    expect(seen).toContain('POST /token');
    expect(seen.some((s) => s.startsWith('GET /v4/spreadsheets/sheet-ok/values/'))).toBe(true);
  });

  it('says in Vietnamese when Google refuses (403), or the sheet or its tab is not there (404, 400)', async () => {
    const failure = (id: string, tab: string) => readGoogleSheet(account, id, tab, { endpoint }).then(() => null, (e: unknown) => e);
    for (const [id, tab, message] of [
      ['sheet-private', 'Danh sách', GOOGLE_SHEET_MSG.refused],
      ['sheet-missing', 'Danh sách', GOOGLE_SHEET_MSG.notFound],
      ['sheet-ok', 'Trang khác', GOOGLE_SHEET_MSG.notFound],
    ]) {
      const e = await failure(id, tab);
      expect(e).toBeInstanceOf(GoogleSheetError);
      expect([(e as GoogleSheetError).message, (e as GoogleSheetError).status]).toEqual([message, 422]);
    }
    // Another account's key: Google's token endpoint refuses the grant.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const e = await readGoogleSheet({ ...account, private_key: other }, 'sheet-ok', 'Danh sách', { endpoint }).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(GoogleSheetError);
    expect((e as GoogleSheetError).message).toBe(GOOGLE_SHEET_MSG.badCredentials);
  });

  it('refuses a key file that is not a service account JSON', () => {
    expect(() => serviceAccountOf('không phải JSON')).toThrow(GOOGLE_SHEET_MSG.badCredentials);
    expect(() => serviceAccountOf(JSON.stringify({ client_email: 'a@b' }))).toThrow(GOOGLE_SHEET_MSG.badCredentials);
    expect(serviceAccountOf(JSON.stringify({ type: 'service_account', ...account }))).toEqual(account);
  });
});
