import { generateKeyPairSync } from 'node:crypto';
import { newServiceAccount, startSheetsStandIn } from '@tongdai/testkit/google-sheets';
import { GOOGLE_SHEET_MSG, GoogleSheetError, readGoogleSheet, serviceAccountOf } from './google-sheet';

/**
 * The real Sheets client (@googleapis/sheets, a service account's JWT) against a local server that
 * answers like Google (the OAuth token endpoint, then spreadsheets.values.get): the only stand-in
 * (testkit google-sheets). The server checks what Google checks: the assertion is signed with the
 * account's key and names it, and the API call carries the token it handed out.
 */
const file = newServiceAccount();
const account = serviceAccountOf(file.json);
const SHEETS = {
  'sheet-ok': { 'Danh sách': [['Họ tên', 'Số điện thoại', 'Gói'], ['Nguyễn Văn An', '0912 345 611', 'Cơ bản'], ['Trần Thị Bình', '+84912345612']] },
};

let standIn: Awaited<ReturnType<typeof startSheetsStandIn>>;
let endpoint: string;
let seen: string[];

beforeAll(async () => {
  standIn = await startSheetsStandIn([file], SHEETS);
  ({ endpoint, seen } = standIn);
});
afterAll(() => standIn.close());

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
    expect(Object.keys(account)).toEqual(['client_email', 'private_key']);
  });
});
