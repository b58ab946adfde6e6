import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors';

/**
 * The two export files of a report (ADR 0025), both written page by page from the same cells as
 * they come: nothing holds the whole file. Every report (calls, user activity) sends them through
 * sendExport. A page is the cells of some rows, as on screen — or a RenderedPage, which can give its
 * CSV bytes without building those cells first (the call history's million-line exports, ADR 0029).
 * A page goes out as one buffer, its lines written as UTF-8 where they go (Utf8Lines).
 */
export interface RenderedPage {
  /** Rows in the page. */
  readonly length: number;
  /** The rows' cells, as a plain page holds them (XLSX, tests). */
  cells(): string[][];
  /** The rows as CSV lines in UTF-8, exactly what csvLine gives for cells(), CRLF after each. */
  csv(): Buffer;
}
export type ExportPage = string[][] | RenderedPage;
export type ExportPages = AsyncGenerator<ExportPage>;

const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;
/** A CSV cell: quoted when needed; a leading = + - @ is defused (a spreadsheet would run it as a formula). */
export const csvCell = (s: string): string => {
  if (!s || !NEEDS_CARE.test(s)) return s; // nearly every cell: one test, no copy
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
const csvLine = (cells: readonly string[]): string => {
  let line = csvCell(cells[0]);
  for (let i = 1; i < cells.length; i++) line += `,${csvCell(cells[i])}`;
  return `${line}\r\n`;
};

/**
 * Lines written as UTF-8 into one buffer as they are made: a page's bytes without joining its
 * lines into one string first (joining thousands of template strings, then encoding the result,
 * cost four times as much as writing each line where it goes).
 */
export class Utf8Lines {
  private buf: Buffer;
  private at = 0;
  /** `bytes`: what the lines will probably take (it grows when they take more). */
  constructor(bytes: number) {
    this.buf = Buffer.allocUnsafe(Math.max(4096, bytes));
  }
  add(line: string): void {
    // At most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2).
    if (this.at + line.length * 3 > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.at + line.length * 3, this.buf.length * 2));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    this.at += this.buf.write(line, this.at);
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

/** A page's CSV lines, UTF-8. */
export function csvLines(page: ExportPage): Buffer {
  if (!Array.isArray(page)) return page.csv();
  const out = new Utf8Lines(page.length * 128);
  for (const cells of page) out.add(csvLine(cells));
  return out.bytes();
}
const cellsOf = (page: ExportPage): string[][] => (Array.isArray(page) ? page : page.cells());

/** UTF-8 with a BOM (Excel reads the Vietnamese), CRLF lines. */
export function csvFile(headers: readonly string[], pages: ExportPages): Readable {
  return Readable.from(
    (async function* () {
      try {
        yield Buffer.from(`\uFEFF${csvLine(headers)}`);
        // One Buffer per page: a single write to the socket, not a string encoded per chunk.
        for await (const page of pages) yield csvLines(page);
      } finally {
        await pages.return(undefined); // cancelled before the first page: nothing more is read
      }
    })(),
    // At most one page waits in the stream (and one is being read): memory stays flat (ADR 0029).
    { highWaterMark: 1 },
  );
}

/** CRC-32 of the zip format, continued from `crc` (zlib's since Node 20.15, else a table). */
const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
export const tableCrc32 = (data: Uint8Array, crc = 0): number => {
  let c = ~crc;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
};
export const crc32: (data: Uint8Array, crc?: number) => number = (zlib as { crc32?: (data: Uint8Array, crc?: number) => number }).crc32 ?? tableCrc32;

/**
 * A zip written as it goes, every entry stored (not deflated): the browser counts an .xlsx's rows
 * in its bytes as they come (progress bar). An entry is whole (file) or streamed (open, data…,
 * close: its CRC and size follow it in a data descriptor); end() gives the central directory. No
 * zip64: an entry stays under 4 GiB (an .xlsx sheet holds at most 1,048,576 rows).
 */
export class StoredZip {
  private at = 0;
  private readonly entries: { name: Buffer; flags: number; crc: number; size: number; offset: number }[] = [];
  private readonly time: number;
  private readonly date: number;

  constructor(now = new Date()) {
    const t = new Date(now.getTime() + 7 * 3_600_000); // Vietnam time (UTC+7, no daylight saving), as DOS keeps it
    this.time = (t.getUTCHours() << 11) | (t.getUTCMinutes() << 5) | (t.getUTCSeconds() >> 1);
    this.date = ((t.getUTCFullYear() - 1980) << 9) | ((t.getUTCMonth() + 1) << 5) | t.getUTCDate();
  }

  private header(name: string, flags: number, crc: number, size: number): Buffer {
    const n = Buffer.from(name, 'utf8');
    this.entries.push({ name: n, flags, crc, size, offset: this.at });
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4); // version needed: 2.0
    h.writeUInt16LE(flags, 6);
    h.writeUInt16LE(0, 8); // stored
    h.writeUInt16LE(this.time, 10);
    h.writeUInt16LE(this.date, 12);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(size, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(n.length, 26);
    h.writeUInt16LE(0, 28);
    this.at += 30 + n.length;
    return Buffer.concat([h, n]);
  }

  /** A whole entry: its header and its bytes. */
  file(name: string, data: Buffer): Buffer {
    const h = this.header(name, 0, crc32(data), data.length);
    this.at += data.length;
    return Buffer.concat([h, data]);
  }

  /** The header of a streamed entry (flag 3: its CRC and sizes come after its bytes). */
  open(name: string): Buffer {
    return this.header(name, 0x0008, 0, 0);
  }

  /** Bytes of the open entry, as they go out. */
  data(chunk: Buffer): Buffer {
    const e = this.entries[this.entries.length - 1];
    e.crc = crc32(chunk, e.crc);
    e.size += chunk.length;
    this.at += chunk.length;
    if (e.size > 0xffffffff) throw new Error('export too large for a zip without zip64');
    return chunk;
  }

  /** The open entry's data descriptor. */
  close(): Buffer {
    const e = this.entries[this.entries.length - 1];
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(e.crc, 4);
    d.writeUInt32LE(e.size, 8);
    d.writeUInt32LE(e.size, 12);
    this.at += 16;
    return d;
  }

  /** The central directory and its end record. */
  end(): Buffer {
    const start = this.at;
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4); // made by: 2.0
      c.writeUInt16LE(20, 6); // needed: 2.0
      c.writeUInt16LE(e.flags, 8);
      c.writeUInt16LE(0, 10);
      c.writeUInt16LE(this.time, 12);
      c.writeUInt16LE(this.date, 14);
      c.writeUInt32LE(e.crc, 16);
      c.writeUInt32LE(e.size, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.offset, 42); // extra, comment, disk, attributes: 0
      parts.push(c, e.name);
    }
    const directory = Buffer.concat(parts);
    if (start + directory.length > 0xffffffff) throw new Error('export too large for a zip without zip64');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    this.at += directory.length + 22;
    return Buffer.concat([directory, end]);
  }
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Characters a cell's text cannot hold as they are: escaped, or dropped (XML 1.0 forbids them). */
const XML_CARE = /[&<>\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]/;
const XML_ESCAPE = /[&<>"]|[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]/g;
const escapeXml = (s: string): string => s.replace(XML_ESCAPE, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : ''));
/** Column letters: A…Z, AA…ZZ (702 columns). */
const COLUMNS = Array.from({ length: 702 }, (_, i) => (i < 26 ? '' : String.fromCharCode(64 + Math.floor(i / 26))) + String.fromCharCode(65 + (i % 26)));
/** What comes before a cell's row number, per column. */
const CELL_OPEN = COLUMNS.map((c) => `<c r="${c}`);

/**
 * A row of text cells (inline strings; an empty cell left out), `style` on each: the sheet's XML.
 * A text with a space (tab, newline) at either end keeps it (xml:space), one with characters XML
 * cannot hold as they are is escaped.
 */
function rowXml(n: number, cells: readonly string[], style = ''): string {
  const at = `${n}"${style} t="inlineStr"><is><t`;
  let row = `<row r="${n}">`;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (!v) continue;
    row += v.charCodeAt(0) <= 32 || v.charCodeAt(v.length - 1) <= 32 || XML_CARE.test(v)
      ? `${CELL_OPEN[i]}${at} xml:space="preserve">${escapeXml(v)}</t></is></c>`
      : `${CELL_OPEN[i]}${at}>${v}</t></is></c>`;
  }
  return `${row}</row>`;
}

/** The parts of a one-sheet workbook around its sheet: bold style 1 for the header row. */
const bookParts = (sheetName: string): [string, string][] => [
  [
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  ],
  [
    '_rels/.rels',
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    'xl/styles.xml',
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  ],
];

/**
 * An .xlsx file streamed as it is written: one sheet of inline strings (no shared-string table
 * held), the header row bold and frozen, each page's rows as one buffer, in a stored zip
 * (StoredZip). Written here rather than by a spreadsheet library, which spent some 50 µs a row
 * (styles and XML objects per cell, issue 13). Waits for the reader at each page (backpressure)
 * and stops reading pages when the download is cancelled.
 */
export function xlsxFile(sheetName: string, headers: readonly string[], pages: ExportPages): Readable {
  return Readable.from(
    (async function* () {
      try {
        const zip = new StoredZip();
        yield Buffer.concat(bookParts(sheetName).map(([name, xml]) => zip.file(name, Buffer.from(xml))));
        const cols = headers.map((h, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.max(12, h.length + 4)}" customWidth="1"/>`).join('');
        const head =
          `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">` +
          `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews>` +
          `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>${rowXml(1, headers, ' s="1"')}`;
        yield Buffer.concat([zip.open('xl/worksheets/sheet1.xml'), zip.data(Buffer.from(head))]);
        let n = 1;
        for await (const page of pages) {
          const out = new Utf8Lines(page.length * 700);
          for (const cells of cellsOf(page)) out.add(rowXml(++n, cells));
          yield zip.data(out.bytes());
        }
        const tail = '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
        yield Buffer.concat([zip.data(Buffer.from(tail)), zip.close(), zip.end()]);
      } finally {
        await pages.return(undefined); // cancelled before the first page: nothing more is read
      }
    })(),
    // At most one page waits in the stream (and one is being read): memory stays flat (ADR 0029).
    { highWaterMark: 1 },
  );
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
