import { createServer } from 'node:http';
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A local server that answers like Google for the Google Sheet contact source (issue 33): the OAuth
 * token endpoint (a service account's RS256 JWT assertion, verified with the account's public key,
 * its issuer and scope) and spreadsheets.values.get (with the bearer it handed out). The API's real
 * client (@googleapis/sheets) is pointed at it through GOOGLE_SHEETS_ENDPOINT: the only stand-in.
 *
 * Spreadsheets: `SHEET_PRIVATE` answers 403 (not shared with the account), an unknown id 404, an
 * unknown tab 400 "Unable to parse range" — as Google does.
 */
export const SHEET_PRIVATE = 'sheet-private';
export type StandInSheets = Record<string, Record<string, string[][]>>;

/** A service account's key file, as Google gives it (the fields the client reads, and a few more). */
export function newServiceAccount(email = 'tongdai@du-an.iam.gserviceaccount.com'): { json: string; email: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = {
    type: 'service_account', project_id: 'du-an', private_key_id: 'k1', client_email: email, client_id: '1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  return { json: JSON.stringify(file), email, publicKey };
}

export async function startSheetsStandIn(accounts: { email: string; publicKey: KeyObject }[], sheets: StandInSheets, port = 0) {
  const TOKEN = 'ya29.stand-in';
  const seen: string[] = [];
  const claimsOf = (assertion: string): Record<string, unknown> | null => {
    const [h, p, sig] = assertion.split('.');
    if (!h || !p || !sig) return null;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const account = accounts.find((a) => a.email === claims.iss);
    return account && verify('RSA-SHA256', Buffer.from(`${h}.${p}`), account.publicKey, Buffer.from(sig, 'base64url')) ? claims : null;
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push(`${req.method} ${url.pathname}`);
      const json = (status: number, o: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(o));
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(body);
        const claims = claimsOf(form.get('assertion') ?? '');
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !claims || !String(claims.scope).includes('spreadsheets.readonly')) {
          return json(400, { error: 'invalid_grant' });
        }
        return json(200, { access_token: TOKEN, expires_in: 3600, token_type: 'Bearer' });
      }
      const m = /^\/v4\/spreadsheets\/([^/]+)\/values\/(.+)$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
        const [id, range] = [decodeURIComponent(m[1]), decodeURIComponent(m[2]).replace(/^'(.*)'$/, '$1').replace(/''/g, "'")];
        if (id === SHEET_PRIVATE) return json(403, { error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } });
        if (!sheets[id]) return json(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
        if (!sheets[id][range]) return json(400, { error: { code: 400, message: `Unable to parse range: ${range}`, status: 'INVALID_ARGUMENT' } });
        return json(200, { range, majorDimension: 'ROWS', values: sheets[id][range] });
      }
      json(404, { error: { code: 404 } });
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
