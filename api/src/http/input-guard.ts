import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_MESSAGES, type ApiErrorBody, type FieldError } from '@tongdai/contracts';
import { AppError } from './errors';

/**
 * What no route accepts, refused once for all of them before any route's own validation
 * (issue 12 §4: 146 inputs answered 500 because PostgreSQL refused them):
 * - a NUL character in any string (text and jsonb columns cannot hold it);
 * - an id, page or page size beyond int4 (every id column is `integer`; offsets overflow);
 * - a number that is not finite or not a safe integer where an integer is meant;
 * - JSON nested deeper than any form sends.
 */
export const INPUT_MSG = {
  nul: 'Không được chứa ký tự NUL',
  tooBig: 'Giá trị vượt quá giới hạn cho phép',
  tooDeep: 'Dữ liệu lồng nhau quá sâu',
  urlTooLong: 'Địa chỉ yêu cầu quá dài',
} as const;

const INT4_MAX = 2_147_483_647;
const MAX_DEPTH = 16;
/** Keys whose value is an integer column or a paging number: id, ids, user_id, role_ids, page, per_page… */
const INTEGER_KEY = /^(?:id|ids|page|per_page|page_size|pageSize|limit|offset|.+_id|.+_ids|.+Id)$/;
/** Ids that are text, not rows: a caller's number, a SIP Call-ID, a Google sheet id, a session. */
const TEXT_ID_KEY = /^(?:caller_?id|call_?id|\w*CallId|sheet_?id|session_?id)$/i;
const isIntegerKey = (key: string) => INTEGER_KEY.test(key) && !TEXT_ID_KEY.test(key);
/** A number written as text (query strings, form fields): digits with sign, decimals or exponent. */
const NUMERIC_TEXT = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?\s*$/i;

function outOfRange(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value) || Math.abs(value) > INT4_MAX;
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Math.abs(Number(value)) > INT4_MAX;
  return false;
}

/** Problems of one value (and what it holds), each under its dotted path. */
export function inputProblems(value: unknown, path = '', depth = 0, integerKey = false, out: FieldError[] = []): FieldError[] {
  if (out.length >= 10) return out;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ field: path, message: INPUT_MSG.nul });
    else if (integerKey && outOfRange(value)) out.push({ field: path, message: INPUT_MSG.tooBig });
  } else if (typeof value === 'number') {
    if (integerKey && outOfRange(value)) out.push({ field: path, message: INPUT_MSG.tooBig });
  } else if (value !== null && typeof value === 'object') {
    if (depth >= MAX_DEPTH) {
      out.push({ field: path, message: INPUT_MSG.tooDeep });
      return out;
    }
    if (Buffer.isBuffer(value)) return out;
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [key, v] of entries) {
      if (key.includes('\u0000')) out.push({ field: path, message: INPUT_MSG.nul });
      const here = path ? `${path}.${key}` : key;
      inputProblems(v, here, depth + 1, Array.isArray(value) ? integerKey : isIntegerKey(key), out);
    }
  }
  return out;
}

async function guardInput(request: FastifyRequest): Promise<void> {
  const problems = [
    // A path id beyond int4 names no row: params.ts answers 404 for it, like any unknown id.
    ...inputProblems(request.params ?? {}).filter((p) => p.message === INPUT_MSG.nul),
    ...inputProblems(request.query ?? {}),
    // A multipart body is read by its route (files are bytes, not text).
    ...(request.isMultipart?.() ? [] : inputProblems(request.body ?? {})),
  ];
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems);
}

/** The text fields of a multipart form, which the hook does not see (the route reads the parts). */
export function checkFormFields(fields: Record<string, string>): void {
  const problems = inputProblems(fields);
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems);
}

/** Node's HTTP parser refusing a request (a 100 kB query string overflows the 16 kB head): our body, not Node's. */
function clientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLong = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLong ? 414 : 400;
  const body: ApiErrorBody = { status, code: 'VALIDATION_FAILED', message: ERROR_MESSAGES.VALIDATION_FAILED };
  if (tooLong) body.details = [{ field: 'url', message: INPUT_MSG.urlTooLong }];
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${tooLong ? 'URI Too Long' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}

/** Fastify's options for the HTTP parser's errors (passed to Fastify() in server.ts). */
export const clientErrorOptions = { clientErrorHandler: clientError as (err: Error, socket: Socket) => void };

/** The guard on every route, before each route's own validation. */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', guardInput);
}
