import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { IMPORT_MAX_ROWS, PBX_MSG, type FieldError } from '@tongdai/contracts';
import { AppError } from './errors';

/** Why a sheet is refused (a 400 on the file field), whichever module reads it. */
export const SHEET_MSG = {
  unpackedTooLarge: (mb: number) => `Tệp Excel sau khi giải nén vượt quá ${mb} MB`,
  tooSlow: 'Tệp quá phức tạp, không đọc xong trong thời gian cho phép',
  tooMany: PBX_MSG.importTooMany,
} as const;

const invalid = (details: FieldError[]) => new AppError('VALIDATION_FAILED', details);

/**
 * A spreadsheet upload as rows of text cells: .xlsx (a zip) or CSV in UTF-8 (with or without BOM,
 * comma or semicolon, RFC 4180 quotes). Numbers come back as their digits, as typed.
 */

export type SheetRows = string[][];

const isZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/** Comma or semicolon, whichever the header line (outside quotes) uses more. */
function delimiterOf(text: string): string {
  let commas = 0;
  let semis = 0;
  let quoted = false;
  // The header line is short: a line of megabytes is not scanned to its end to choose.
  for (const ch of text.slice(0, 4096)) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semis++;
  }
  return semis > commas ? ';' : ',';
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** Characters read between two pauses of a yielding parse. */
const CSV_SLICE = 64 * 1024;

/**
 * RFC 4180 rows, as a generator that pauses every CSV_SLICE characters (the rows come back as its
 * return value). Cells are cut out with slices, not grown a character at a time.
 */
function* csvRows(text: string): Generator<void, SheetRows> {
  const src = text.replace(/^\uFEFF/, '');
  const sep = delimiterOf(src).charCodeAt(0);
  const rows: SheetRows = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let pause = CSV_SLICE;
  while (i < src.length) {
    if (i >= pause) {
      yield;
      pause = i + CSV_SLICE;
    }
    const ch = src.charCodeAt(i);
    if (ch === QUOTE && cell === '') {
      // Quoted: up to the closing quote; "" inside is one quote; no closing quote runs to the end.
      const parts: string[] = [];
      i++;
      for (;;) {
        if (i >= pause) {
          yield;
          pause = i + CSV_SLICE;
        }
        const q = src.indexOf('"', i);
        if (q < 0) {
          parts.push(src.slice(i));
          i = src.length;
          break;
        }
        parts.push(src.slice(i, q));
        if (src.charCodeAt(q + 1) === QUOTE) {
          parts.push('"');
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      cell = parts.join('');
    } else if (ch === sep) {
      row.push(cell);
      cell = '';
      i++;
    } else if (ch === LF || ch === CR) {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += ch === CR && src.charCodeAt(i + 1) === LF ? 2 : 1;
    } else {
      // At most a slice at a time: one 5 MB cell still pauses.
      const stop = Math.min(src.length, i + CSV_SLICE);
      let j = i + 1;
      for (let c = src.charCodeAt(j); j < stop && c !== sep && c !== LF && c !== CR; c = src.charCodeAt(++j));
      cell += src.slice(i, j);
      i = j;
    }
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

export function parseCsv(text: string): SheetRows {
  const steps = csvRows(text);
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

/** parseCsv letting other requests run between slices: a 5 MB upload never holds the event loop. */
async function parseCsvYielding(text: string): Promise<SheetRows> {
  const steps = csvRows(text);
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return r.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Text with no NUL and valid UTF-8: what a CSV export is; anything else is not a sheet we read. */
function asText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Limits of one sheet (issue 12 §1): the XML inside an .xlsx unpacks to at most `maxUnpacked`
 * bytes, a sheet has at most `maxRows` rows before it is parsed (blank rows included, so Excel's
 * formatted-but-empty rows leave room), and reading takes at most `timeoutMs` in a worker thread
 * whose heap is capped, so no file holds the event loop every tenant shares.
 */
export interface SheetLimits {
  maxUnpacked: number;
  maxRows: number;
  timeoutMs: number;
  /** The data rows the importer takes, named by the "too many rows" message. */
  rowsAllowed: number;
}
/** The PBX partner imports' limits (SPEC §7: 2,000 rows). */
export const SHEET_LIMITS: SheetLimits = { maxUnpacked: 8 * 1024 * 1024, maxRows: IMPORT_MAX_ROWS * 5, timeoutMs: 10_000, rowsAllowed: IMPORT_MAX_ROWS };
const WORKER_HEAP_MB = 128;
const WORKER_FILE = join(__dirname, 'sheet-worker.mjs');

type WorkerAnswer = { kind: 'rows'; rows: SheetRows } | { kind: 'invalid' | 'unpacked' | 'rows-limit' | 'time' };

/** At most this many sheet workers at once (each may take its heap); later reads wait their turn. */
const MAX_WORKERS = 2;
let running = 0;
const waiting: (() => void)[] = [];
/** Sheet workers running now (for tests and monitoring). */
export const sheetWorkersRunning = (): number => running;
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** sheet-worker.mjs on a copy of the bytes; terminated when it outlives the time limit or its heap. */
function readXlsxInWorker(bytes: Buffer, limits: SheetLimits): Promise<WorkerAnswer> {
  return inTurn(() => readXlsxNow(bytes, limits));
}

function readXlsxNow(bytes: Buffer, limits: SheetLimits): Promise<WorkerAnswer> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_FILE, {
      workerData: { bytes: new Uint8Array(bytes), maxUnpacked: limits.maxUnpacked, maxRows: limits.maxRows },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    });
    const done = (answer: WorkerAnswer) => {
      clearTimeout(timer);
      resolve(answer);
      void worker.terminate();
    };
    const timer = setTimeout(() => done({ kind: 'time' }), limits.timeoutMs);
    worker.once('message', (answer: WorkerAnswer) => done(answer));
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or a crash: the file is not one we can read.
    worker.once('error', () => done({ kind: 'unpacked' }));
    worker.once('exit', () => done({ kind: 'invalid' }));
  });
}

/** Text lines (a CSV row per line, quoted line breaks aside): counted before parsing. */
const lineCount = (text: string): number => {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * The first sheet's rows, or null when the file is neither .xlsx nor CSV text. A file over
 * the limits is a 400 on `file` saying which limit.
 */
export async function readRows(bytes: Buffer, limits: SheetLimits = SHEET_LIMITS): Promise<SheetRows | null> {
  if (isZip(bytes)) {
    const answer = await readXlsxInWorker(bytes, limits);
    if (answer.kind === 'rows') return answer.rows;
    if (answer.kind === 'invalid') return null;
    const message = {
      unpacked: SHEET_MSG.unpackedTooLarge(limits.maxUnpacked / (1024 * 1024)),
      'rows-limit': SHEET_MSG.tooMany(limits.rowsAllowed),
      time: SHEET_MSG.tooSlow,
    }[answer.kind];
    throw invalid([{ field: 'file', message }]);
  }
  const text = asText(bytes);
  if (text === null) return null;
  if (lineCount(text) > limits.maxRows) throw invalid([{ field: 'file', message: SHEET_MSG.tooMany(limits.rowsAllowed) }]);
  return parseCsvYielding(text);
}
