import { auth, sheets } from '@googleapis/sheets';

/**
 * A Google Sheet as a contact source (issue 33, ADR 0050): the real client (@googleapis/sheets with a
 * service account's JWT) reads a sheet's values; the rows then go through the same preview and mapping
 * as an uploaded XLSX/CSV. Google's refusals become Vietnamese messages (GOOGLE_SHEET_MSG).
 *
 * `endpoint` (tests, or a proxy a deployment must use): every request to Google's OAuth token endpoint
 * and to the Sheets API goes to that origin instead, the same paths — the only stand-in is there.
 */

export const GOOGLE_SHEET_MSG = {
  required: 'Thông tin không được để trống',
  badCredentials: 'Thông tin tài khoản dịch vụ Google không hợp lệ (cần tệp JSON có client_email và private_key)',
  refused: 'Google từ chối truy cập trang tính: hãy chia sẻ trang tính cho email của tài khoản dịch vụ',
  notFound: 'Không tìm thấy trang tính hoặc tên sheet trên Google',
  unreachable: 'Không kết nối được với Google, vui lòng thử lại sau',
} as const;

/** A service account's key file, as Google gives it (only these fields are used). */
export interface ServiceAccount {
  client_email: string;
  private_key: string;
}

/** Google refused or failed: `message` is the sentence to show, `status` the HTTP status to answer with. */
export class GoogleSheetError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 422 | 502,
  ) {
    super(message);
  }
}

/** Parses a key file's text; a clear error for anything that is not a service account's JSON. */
export function serviceAccountOf(json: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new GoogleSheetError(GOOGLE_SHEET_MSG.badCredentials, 400);
  }
  const o = parsed as Partial<ServiceAccount> | null;
  if (!o || typeof o.client_email !== 'string' || typeof o.private_key !== 'string' || !o.private_key.includes('PRIVATE KEY')) {
    throw new GoogleSheetError(GOOGLE_SHEET_MSG.badCredentials, 400);
  }
  return { client_email: o.client_email, private_key: o.private_key };
}

const GOOGLE_ORIGINS = ['https://oauth2.googleapis.com', 'https://sheets.googleapis.com'];

/** What a failed request says of itself (gaxios errors carry the response's status). */
const statusOf = (err: unknown): number | null => {
  const e = err as { status?: number; response?: { status?: number }; code?: number | string };
  return e?.response?.status ?? e?.status ?? (typeof e?.code === 'number' ? e.code : null);
};

/**
 * The sheet's values (`sheetName` the tab, e.g. "Danh sách"), every row as text, the header first.
 * 403 (not shared with the service account, API disabled) and 404 (no such spreadsheet or tab; Google
 * answers 400 "Unable to parse range" for a missing tab) become GoogleSheetError with Vietnamese words.
 */
export async function readGoogleSheet(account: ServiceAccount, sheetId: string, sheetName: string, opts: { endpoint?: string; timeoutMs?: number } = {}): Promise<string[][]> {
  const client = new auth.JWT({ email: account.client_email, key: account.private_key, scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'],
    // Node's own fetch: gaxios would otherwise import one dynamically.
    transporterOptions: { fetchImplementation: fetch } });
  if (opts.endpoint) {
    const to = opts.endpoint.replace(/\/$/, '');
    // The client's own transport carries both the token request and the API's: one rewrite for both.
    client.transporter.interceptors.request.add({
      resolved: async (config) => {
        const url = String(config.url ?? '');
        const from = GOOGLE_ORIGINS.find((o) => url.startsWith(o));
        if (from) config.url = new URL(to + url.slice(from.length));
        return config;
      },
    });
  }
  const api = sheets({ version: 'v4', auth: client });
  try {
    const res = await api.spreadsheets.values.get({ spreadsheetId: sheetId, range: `'${sheetName.replace(/'/g, "''")}'`, valueRenderOption: 'FORMATTED_VALUE' }, { timeout: opts.timeoutMs ?? 20_000 });
    return (res.data.values ?? []).map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  } catch (err) {
    const status = statusOf(err);
    // The token endpoint refusing the account's signed assertion (a revoked or wrong key).
    if (/invalid_grant|invalid_client|unauthorized_client/.test(String((err as Error)?.message))) throw new GoogleSheetError(GOOGLE_SHEET_MSG.badCredentials, 422);
    if (status === 401 || status === 403) throw new GoogleSheetError(GOOGLE_SHEET_MSG.refused, 422);
    if (status === 404 || status === 400) throw new GoogleSheetError(GOOGLE_SHEET_MSG.notFound, 422);
    throw new GoogleSheetError(GOOGLE_SHEET_MSG.unreachable, 502);
  }
}
