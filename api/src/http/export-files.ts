import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { stream as excelStream } from 'exceljs';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors';

/**
 * The two export files of a report (ADR 0025), both written page by page from the same cells as
 * they come: nothing holds the whole file. Every report (calls, user activity) sends them through
 * sendExport. A page is the cells of some rows, as on screen — or a RenderedPage, which can give its
 * CSV text without building those cells first (the call history's million-line exports, ADR 0029).
 */
export interface RenderedPage {
  /** Rows in the page. */
  readonly length: number;
  /** The rows' cells, as a plain page holds them (XLSX, tests). */
  cells(): string[][];
  /** The rows as CSV lines, exactly what csvLine gives for cells(), CRLF after each. */
  csv(): string;
}
export type ExportPage = string[][] | RenderedPage;
export type ExportPages = AsyncGenerator<ExportPage>;

const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;
/** A CSV cell: quoted when needed; a leading = + - @ is defused (a spreadsheet would run it as a formula). */
export const csvCell = (s: string): string => {
  if (!NEEDS_CARE.test(s)) return s; // nearly every cell: one test, no copy
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
const csvLine = (cells: readonly string[]): string => {
  let line = csvCell(cells[0]);
  for (let i = 1; i < cells.length; i++) line += `,${csvCell(cells[i])}`;
  return `${line}\r\n`;
};
/** A page's CSV lines, one string. */
export const csvLines = (page: ExportPage): string => (Array.isArray(page) ? page.map(csvLine).join('') : page.csv());
const cellsOf = (page: ExportPage): string[][] => (Array.isArray(page) ? page : page.cells());

/** UTF-8 with a BOM (Excel reads the Vietnamese), CRLF lines. */
export function csvFile(headers: readonly string[], pages: ExportPages): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(`\uFEFF${csvLine(headers)}`);
      // One Buffer per page: a single write to the socket, not a string encoded per chunk.
      for await (const page of pages) yield Buffer.from(csvLines(page));
    })(),
    // At most one page waits in the stream (and one is being read): memory stays flat (ADR 0029).
    { highWaterMark: 1 },
  );
}

/**
 * An .xlsx file streamed as it is written (exceljs' WorkbookWriter: each row committed goes to the
 * zip and out, inline strings, no shared-string table held). Waits for the reader at each page
 * (backpressure) and stops reading pages when the download is cancelled.
 */
export function xlsxFile(sheetName: string, headers: readonly string[], pages: ExportPages): Readable {
  const out = new PassThrough();
  // Stored, not deflated: the browser counts the sheet's rows in the bytes as they come (progress bar).
  const book = new excelStream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true, zip: { store: true } });
  const sheet = book.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = headers.map((header) => ({ header, width: Math.max(12, header.length + 4) }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  void (async () => {
    try {
      for await (const page of pages) {
        if (out.destroyed) {
          await pages.return(undefined);
          return;
        }
        for (const cells of cellsOf(page)) sheet.addRow(cells).commit();
        if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      }
      sheet.commit();
      await book.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}

/**
 * Sends a report's export as `format` (csv or xlsx; anything else is a 404), streamed, named
 * `file`.<format>. Call it once the filters are checked: a bad filter stays a 400, not a broken file.
 */
export function sendExport(
  reply: FastifyReply,
  o: { format: string; file: string; sheet: string; headers: readonly string[]; pages: () => Promise<ExportPages> },
): Promise<FastifyReply> {
  if (o.format !== 'csv' && o.format !== 'xlsx') throw new AppError('NOT_FOUND');
  return o.pages().then((pages) =>
    reply
      .type(o.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${o.file}.${o.format}"`)
      .header('cache-control', 'no-store')
      .send(o.format === 'csv' ? csvFile(o.headers, pages) : xlsxFile(o.sheet, o.headers, pages)),
  );
}
