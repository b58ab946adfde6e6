import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { readSheet } from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { CONTACT_IMPORT_MAX_ROWS } from '@tongdai/contracts';
import { zip } from '@tongdai/testkit/xlsx-bomb';
import { xlsxFile } from './export-files';
import { readRows, type SheetLimits } from './sheet';

/**
 * xlsx-scan.mjs, the sheet worker's reader, against read-excel-file, which it replaced: every file
 * here is read both ways and must come back the same (read-excel-file's cells mapped to text as the
 * worker mapped them; a file it throws on is one readRows refuses, null). Through readRows, the
 * real path: the worker's unzip and limits, then the scanner. Files from writers (write-excel-file,
 * exceljs, the API's own export) and hand-written XML for what writers seldom write; then some
 * 1,600 generated and garbled books compared with read-excel-file's parseSheet in one worker
 * thread (the scanner is an .mjs, which Jest's CommonJS runtime cannot import).
 */

/** The campaign contact import's limits (campaigns.routes.ts). */
const LIMITS: SheetLimits = { maxUnpacked: 64 * 1024 * 1024, maxRows: CONTACT_IMPORT_MAX_ROWS + 5_000, timeoutMs: 30_000, rowsAllowed: CONTACT_IMPORT_MAX_ROWS };

/** The worker's mapping of read-excel-file's cells before the scanner. */
const text = (cell: unknown): string => (cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString() : String(cell));

async function readExcelFile(bytes: Buffer): Promise<string[][] | null> {
  try {
    const data = await readSheet(bytes, { parseNumber: (s: string) => s, trim: true });
    return data.map((row) => row.map(text));
  } catch {
    return null;
  }
}

/** The rows readRows reads, having checked that read-excel-file reads the same. */
async function read(bytes: Buffer): Promise<string[][] | null> {
  const [mine, theirs] = await Promise.all([readRows(bytes, LIMITS), readExcelFile(bytes)]);
  expect(mine).toEqual(theirs);
  return mine;
}

type Parts = Record<string, string | Uint8Array>;
const xlsxOf = (parts: Parts): Buffer => zip(Object.entries(parts).map(([name, data]) => ({ name, data: Buffer.from(data) })));

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const WORKBOOK = (inner: string, sheets = '<sheet name="Danh bạ" sheetId="1" r:id="rId1"/>') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}">${inner}<sheets>${sheets}</sheets></workbook>`;
const RELS = (more = '', sheet = 'worksheets/sheet1.xml') =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="${sheet}"/>` +
  `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/>${more}</Relationships>`;
const SHEET = (sheetData: string) => `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:Z99"/><sheetData>${sheetData}</sheetData></worksheet>`;

/** A workbook whose first sheet's <sheetData> holds `sheetData`, with shared strings and styles if given. */
function book(sheetData: string, o: { strings?: string; styles?: string; workbook?: string } = {}): Parts {
  return {
    'xl/workbook.xml': o.workbook ?? WORKBOOK(''),
    'xl/_rels/workbook.xml.rels': RELS(),
    'xl/worksheets/sheet1.xml': SHEET(sheetData),
    ...(o.strings !== undefined && { 'xl/sharedStrings.xml': `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${o.strings}</sst>` }),
    ...(o.styles !== undefined && { 'xl/styles.xml': `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${o.styles}</styleSheet>` }),
  };
}

// Cell styles: 0 general, 1 built-in date (14), 2 custom date, 3 custom number, 4 built-in date
// and time (22), 5 a base style's date format (xfId), 6 a custom time with a locale and ";@",
// 7 a custom format whose quoted text looks like a date but is not one.
const STYLES =
  '<numFmts count="4"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="#,##0.00"/><numFmt numFmtId="166" formatCode="[$-42A]h:mm AM/PM;@"/><numFmt numFmtId="167" formatCode="&quot;ngày &quot;0"/></numFmts>' +
  '<cellStyleXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellStyleXfs>' +
  '<cellXfs count="8"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0" applyNumberFormat="1"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="22"/><xf xfId="1"/><xf numFmtId="166"/><xf numFmtId="167"/></cellXfs>';

const inline = (ref: string, s: string) => `<c r="${ref}" t="inlineStr"><is><t>${s}</t></is></c>`;

describe('xlsx-scan: the sheet worker reads what read-excel-file read', () => {
  it('reads shared strings: Vietnamese, rich text runs joined, phonetic runs left out, trimmed', async () => {
    const strings =
      '<si><t>Nguyễn Văn Ánh</t></si>' +
      '<si><r><rPr><b/></rPr><t>Trần</t></r><r><t xml:space="preserve"> Thị </t></r><r><rPr><i/></rPr><t>Bình</t></r></si>' +
      '<si><t>Lê</t><rPh sb="0" eb="1"><t>レ</t></rPh><phoneticPr fontId="1"/></si>' +
      '<si><t xml:space="preserve">  0912 345 678\t</t></si><si><t>Đặng_x000D__x000A_Hà Nội</t></si><si><t/></si>';
    const sheet = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c><c r="F1" t="s"><v>5</v></c></row>';
    expect(await read(xlsxOf(book(sheet, { strings })))).toEqual([['Nguyễn Văn Ánh', 'Trần Thị Bình', 'Lê', '0912 345 678', 'Đặng\r\nHà Nội']]);
  });

  it('reads inline strings, formula results, booleans, error cells and numbers as their digits', async () => {
    const sheet =
      `<row r="1">${inline('A1', ' Phạm &amp; Cộng sự ')}<c r="B1" t="inlineStr"><is><r><t>Hồ </t></r><r><rPr><b/></rPr><t>Chí Minh</t></r></is></c>` +
      '<c r="C1" t="str"><f>A1&amp;"x"</f><v>Hà_x000D_Nội</v></c><c r="D1" t="b"><v>1</v></c><c r="E1" t="b"><v>0</v></c><c r="F1" t="e"><f>1/0</f><v>#DIV/0!</v></c>' +
      '<c r="G1"><v>912345678</v></c><c r="H1" t="n"><v>1.50</v></c><c r="I1"><v>-3.2E-5</v></c><c r="J1" t="str"><f>""</f><v></v></c><c r="K1" t="d"><v>2024-02-29T08:30:00Z</v></c></row>';
    expect(await read(xlsxOf(book(sheet)))).toEqual([['Phạm & Cộng sự', 'Hồ Chí Minh', 'Hà\rNội', 'true', 'false', '', '912345678', '1.50', '-3.2E-5', '', '2024-02-29T08:30:00.000Z']]);
  });

  it('reads dates by the cell style (built-in, custom and base style formats), in the 1900 and 1904 systems', async () => {
    const sheet =
      '<row r="1"><c r="A1" s="1"><v>45000</v></c><c r="B1" s="2"><v>45000.5</v></c><c r="C1" s="3"><v>45000.5</v></c><c r="D1" s="4"><v>45000.25</v></c>' +
      '<c r="E1" s="5"><v>45292</v></c><c r="F1" s="6"><v>0.75</v></c><c r="G1" s="7"><v>7</v></c><c r="H1" s="0"><v>45000</v></c><c r="I1"><v>45000</v></c></row>';
    expect(await read(xlsxOf(book(sheet, { styles: STYLES })))).toEqual([
      ['2023-03-15T00:00:00.000Z', '2023-03-15T12:00:00.000Z', '45000.5', '2023-03-15T06:00:00.000Z', '2024-01-01T00:00:00.000Z', '1899-12-30T18:00:00.000Z', '7', '45000', '45000'],
    ]);
    const mac = book('<row r="1"><c r="A1" s="1"><v>45000</v></c></row>', { styles: STYLES, workbook: WORKBOOK('<workbookPr date1904="1"/>') });
    expect(await read(xlsxOf(mac))).toEqual([['2027-03-16T00:00:00.000Z']]);
  });

  it('decodes XML entities and character references, skips comments and CDATA as read-excel-file did', async () => {
    const sheet =
      `<row r="1">${inline('A1', '&lt;b&gt; &quot;Tổng&quot; &apos;đài&apos; &#272;&#x1EA1;i &amp;nbsp; &nbsp;')}${inline('B1', 'một<!-- ghi chú -->hai')}` +
      `${inline('C1', '<![CDATA[ba]]>')}<c r="D1"><v>4<!-- x -->2</v></c></row>`;
    expect(await read(xlsxOf(book(sheet)))).toEqual([['<b> "Tổng" \'đài\' Đại &nbsp; &nbsp;', 'hai', '', '2']]);
  });

  it('places cells by their r, fills the gaps, keeps empty rows and columns at the top and left, drops them at the bottom and right', async () => {
    const sheet =
      `<row r="2" spans="3:5">${inline('C2', 'c2')}</row>` +
      `<row r="4"><c r="B4"/>${inline('E4', 'e4')}<c r="F4"/><c r="G4"><v></v></c><c r="H4" t="s"><v>0</v></c>${inline('I4', '   ')}</row>` +
      '<row r="5"/><row r="6"><c r="A6" s="0"/><c r="B6" t="str"><f>""</f><v></v></c></row>';
    expect(await read(xlsxOf(book(sheet, { strings: '<si><t xml:space="preserve"> </t></si>', styles: STYLES })))).toEqual([
      ['', '', '', '', ''],
      ['', '', 'c2', '', ''],
      ['', '', '', '', ''],
      ['', '', '', '', 'e4'],
    ]);
  });

  it('reads rows without r from their cells, and keeps a trailing <row/> without r as read-excel-file does', async () => {
    const sheet = `<row>${inline('B1', 'b1')}</row><row>${inline('A2', 'a2')}</row><row/>`;
    expect(await read(xlsxOf(book(sheet)))).toEqual([
      ['', 'b1'],
      ['a2', ''],
      ['', ''],
    ]);
  });

  it('reads namespace-prefixed parts (<x:row>, <x:c>) as some writers emit them', async () => {
    const x = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const parts: Parts = {
      'xl/workbook.xml': `<x:workbook ${x} xmlns:r="${REL}"><x:workbookPr date1904="0"/><x:sheets><x:sheet name="Trang 1" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
      'xl/_rels/workbook.xml.rels': RELS(),
      'xl/worksheets/sheet1.xml': `<x:worksheet ${x}><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>Ánh</x:t></x:is></x:c><x:c r="C1" s="1"><x:v>45000</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
      'xl/sharedStrings.xml': `<x:sst ${x}><x:si><x:r><x:t>Văn</x:t></x:r><x:r><x:t>Bảo</x:t></x:r></x:si></x:sst>`,
      'xl/styles.xml': `<x:styleSheet ${x}><x:cellXfs><x:xf numFmtId="0"/><x:xf numFmtId="14"/></x:cellXfs></x:styleSheet>`,
    };
    expect(await read(xlsxOf(parts))).toEqual([['VănBảo', 'Ánh', '2023-03-15T00:00:00.000Z']]);
  });

  it('reads the first sheet the workbook lists, wherever its rels put it (an absolute target, the strict namespace)', async () => {
    const one = SHEET(`<row r="1">${inline('A1', 'sheet1')}</row>`);
    const two = SHEET(`<row r="1">${inline('A1', 'sheet2')}</row>`);
    const sheets = '<sheet name="Hai" sheetId="2" r:id="rId4"/><sheet name="Một" sheetId="1" r:id="rId1"/>';
    const absolute: Parts = {
      'xl/workbook.xml': WORKBOOK('', sheets),
      'xl/_rels/workbook.xml.rels': RELS(`<Relationship Id="rId4" Type="${REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/>`),
      'xl/worksheets/sheet1.xml': one,
      'xl/worksheets/sheet2.xml': two,
    };
    expect(await read(xlsxOf(absolute))).toEqual([['sheet2']]);
    const strict: Parts = {
      ...absolute,
      'xl/_rels/workbook.xml.rels': RELS(`<Relationship Id="rId4" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet" Target="worksheets/sheet2.xml"/>`),
    };
    expect(await read(xlsxOf(strict))).toEqual([['sheet2']]);
  });

  it('reads an empty sheet as no rows, and one of empty rows and cells too', async () => {
    expect(await read(xlsxOf(book('')))).toEqual([]);
    expect(await read(xlsxOf({ ...book(''), 'xl/worksheets/sheet1.xml': '<worksheet><sheetData/></worksheet>' }))).toEqual([]);
    expect(await read(xlsxOf(book('<row r="1"/><row r="2"><c r="A2"/><c r="B2" t="s"><v>0</v></c></row>', { strings: '<si><t>  </t></si>' })))).toEqual([]);
  });

  it('refuses what read-excel-file could not read: no sheet, a missing part, cells without r, a bad cell, broken XML', async () => {
    const refused: Parts[] = [
      { 'xl/workbook.xml': WORKBOOK('', ''), 'xl/_rels/workbook.xml.rels': RELS() },
      { 'xl/workbook.xml': WORKBOOK(''), 'xl/_rels/workbook.xml.rels': RELS() },
      { 'xl/_rels/workbook.xml.rels': RELS(), 'xl/worksheets/sheet1.xml': SHEET('') },
      { ...book(''), 'xl/worksheets/sheet1.xml': '<worksheet><sheetPr/></worksheet>' },
      book('<row r="1"><c t="inlineStr"><is><t>no r</t></is></c></row>'),
      book('<row r="1"><c r="A1" t="s"><v>1</v></c></row>', { strings: '<si><t>only one</t></si>' }),
      book('<row r="1"><c r="A1" s="0"><v>5</v></c></row>'),
      book('<row r="1"><c r="A1" t="b"><v>yes</v></c></row>'),
      book('<row r="2"><c r="A2"><v>1</v></c></row><row r="1"><c r="A1"><v>1</v></c></row>'),
      book('<row r="1"><c r="A1"><v>1</c></row>'),
      book('<row r="1"><c r="A1" s="1"><v>1e12</v></c></row>', { styles: STYLES }),
    ];
    for (const parts of refused) expect(await read(xlsxOf(parts))).toBeNull();
  });

  it('reads what write-excel-file writes: strings, numbers, dates, booleans, empty cells', async () => {
    const bytes = await writeXlsxFile(
      [
        ['Họ tên', 'Số điện thoại', 'Ngày sinh', 'Điểm', 'VIP', 'Ghi chú'],
        ['Nguyễn Văn Ánh', '0912345678', { value: new Date(Date.UTC(1990, 4, 17)), format: 'dd/mm/yyyy' }, 8.5, true, '  có khoảng trắng  '],
        ['Trần Thị Bình', { value: 84912345678, type: Number }, null, -2, false, ''],
        [null, null, null, null, null, null],
        ['Lê <Hoàng> & "Đạt"', '+84 912 345 678', { value: new Date(Date.UTC(2024, 1, 29, 13, 45)), format: 'yyyy-mm-dd hh:mm' }, 1e21, null, 'x'],
        ['', '', '', '', '', ''],
      ],
      {},
    ).toBuffer();
    expect(await read(bytes)).toEqual([
      ['Họ tên', 'Số điện thoại', 'Ngày sinh', 'Điểm', 'VIP', 'Ghi chú'],
      ['Nguyễn Văn Ánh', '0912345678', '1990-05-17T00:00:00.000Z', '8.5', 'true', 'có khoảng trắng'],
      ['Trần Thị Bình', '84912345678', '', '-2', 'false', ''],
      ['', '', '', '', '', ''],
      ['Lê <Hoàng> & "Đạt"', '+84 912 345 678', '2024-02-29T13:45:00.000Z', '1e+21', '', 'x'],
    ]);
  });

  it('reads what exceljs writes: shared strings, dates, formula results, rich text', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Liên hệ');
    sheet.addRow(['Tên', 'Ngày', 'Số', 'Công thức', 'Định dạng']);
    sheet.addRow(['Phạm Minh Đức', new Date(Date.UTC(2023, 11, 31)), 42, { formula: 'A2&"!"', result: 'Phạm Minh Đức!' }, { richText: [{ text: 'Đậm ' }, { font: { bold: true }, text: 'nhạt' }] }]);
    sheet.addRow([null, null, 3.25, { formula: 'C2*2', result: 84 }, true]);
    sheet.getCell('B3').value = new Date(Date.UTC(2023, 0, 1, 6));
    sheet.getCell('B3').numFmt = 'dd/mm/yyyy hh:mm';
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await read(bytes)).toEqual([
      ['Tên', 'Ngày', 'Số', 'Công thức', 'Định dạng'],
      ['Phạm Minh Đức', '2023-12-31T00:00:00.000Z', '42', 'Phạm Minh Đức!', 'Đậm nhạt'],
      ['', '2023-01-01T06:00:00.000Z', '3.25', '84', 'true'],
    ]);
  });

  it("reads the API's own .xlsx export back", async () => {
    async function* pages() {
      yield [
        ['0912345678', 'Nguyễn Văn Ánh', 'gọi lại sau 5 phút'],
        ['02873000001', ' Tổng đài ', ''],
      ];
    }
    const chunks: Buffer[] = [];
    for await (const chunk of xlsxFile('Lịch sử', ['Số', 'Tên', 'Ghi chú'], pages())) chunks.push(Buffer.from(chunk));
    expect(await read(Buffer.concat(chunks))).toEqual([
      ['Số', 'Tên', 'Ghi chú'],
      ['0912345678', 'Nguyễn Văn Ánh', 'gọi lại sau 5 phút'],
      ['02873000001', 'Tổng đài', ''],
    ]);
  });

  it('answers as read-excel-file on 1,600 generated and garbled books, and tells dates by its rule', async () => {
    const { books, formats, ids } = await compareInWorker([...generatedBooks(700), ...garbledBooks(900)], FORMAT_CODES);
    const outcomes = { rows: 0, empty: 0, invalid: 0 };
    books.forEach(([theirs, mine], i) => {
      if (mine !== theirs) throw new Error(`book ${i} differs: read-excel-file ${theirs}, scanner ${mine}`);
      outcomes[theirs === 'invalid' ? 'invalid' : theirs === '[]' ? 'empty' : 'rows']++;
    });
    // Each kind of answer is well represented.
    expect(Math.min(outcomes.rows, outcomes.empty, outcomes.invalid)).toBeGreaterThan(150);
    expect(formats.filter(([theirs, mine]) => theirs !== mine)).toEqual([]);
    expect(formats.filter(([theirs]) => theirs).length).toBeGreaterThan(10);
    expect(ids[1]).toEqual(ids[0]);
  });

  it('reads 100,000 contacts × 3 columns (the import bench) through the worker', async () => {
    const data: { value: string }[][] = [[{ value: 'Họ tên' }, { value: 'Số điện thoại' }, { value: 'Ghi chú' }]];
    for (let i = 0; i < 100_000; i++) data.push([{ value: `Khách hàng ${i + 1}` }, { value: `09${String(10_000_000 + i).padStart(8, '0')}` }, { value: i % 7 ? '' : 'VIP' }]);
    const rows = await readRows(await writeXlsxFile(data, {}).toBuffer(), LIMITS);
    expect(rows).toHaveLength(100_001);
    expect(rows![0]).toEqual(['Họ tên', 'Số điện thoại', 'Ghi chú']);
    expect(rows![1]).toEqual(['Khách hàng 1', '0910000000', 'VIP']);
    expect(rows![2]).toEqual(['Khách hàng 2', '0910000001', '']);
    expect(rows![100_000]).toEqual(['Khách hàng 100000', '0910099999', '']);
    rows!.slice(1).forEach((row, i) => {
      if (row.length !== 3 || row[0] !== `Khách hàng ${i + 1}` || row[2] !== (i % 7 ? '' : 'VIP')) throw new Error(`row ${i + 2}: ${JSON.stringify(row)}`);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Generated books, compared with read-excel-file's parseSheet (the worker's former reader) in a
// worker thread where both load as ES modules.

const COMPARE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');
const { dirname, join } = require('node:path');
(async () => {
  const modules = join(dirname(createRequire(workerData.from).resolve('read-excel-file/node')), '..', 'modules');
  const load = (path) => import(pathToFileURL(path).href);
  const [{ default: parseSheet }, { default: parseXml }, { isDateFormatTemplate }, { BUILT_IN_DATE_FORMAT_IDS }, scanner] = await Promise.all([
    load(join(modules, 'export', 'parseSheet.js')),
    load(join(modules, 'xml', 'parseXml.js')),
    load(join(modules, 'xlsx', 'isDateFormat.js')),
    load(join(modules, 'xlsx', 'isDateFormatStyle.js')),
    import(workerData.scanner),
  ]);
  const text = (cell) => (cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString() : String(cell));
  const contentsOf = (parts) => Object.fromEntries(Object.entries(parts).map(([name, data]) => [name, typeof data === 'string' ? new TextEncoder().encode(data) : data]));
  const outcome = async (read) => {
    try {
      return JSON.stringify(await read());
    } catch {
      return 'invalid';
    }
  };
  const books = [];
  for (const parts of workerData.books) {
    const theirs = await outcome(async () => (await parseSheet(undefined, parseXml, contentsOf(parts), undefined, { parseNumber: (s) => s, trim: true })).map((row) => row.map(text)));
    books.push([theirs, await outcome(() => scanner.scanXlsx(contentsOf(parts)))]);
  }
  const formats = workerData.formats.map((code) => [isDateFormatTemplate(code), scanner.isDateFormatTemplate(code)]);
  parentPort.postMessage({ books, formats, ids: [BUILT_IN_DATE_FORMAT_IDS, scanner.BUILT_IN_DATE_FORMAT_IDS] });
})();
`;

interface Compared {
  books: [string, string][];
  formats: [boolean, boolean][];
  ids: [number[], number[]];
}

function compareInWorker(books: Parts[], formats: string[]): Promise<Compared> {
  const worker = new Worker(COMPARE, {
    eval: true,
    workerData: { books, formats, from: join(__dirname, '..', '..', 'package.json'), scanner: pathToFileURL(join(__dirname, 'xlsx-scan.mjs')).href },
  });
  return new Promise<Compared>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`compare worker exited (${code})`)));
  }).finally(() => void worker.terminate());
}

const FORMAT_CODES = [
  'dd/mm/yyyy', 'm/d/yy', 'yyyy-mm-dd hh:mm:ss', '[$-42A]h:mm AM/PM;@', '[h]:mm:ss', 'mm:ss.0', 'ss.000', 'd"-"m', 'dddd, d mmmm yyyy',
  '[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy', 'yyyy"年"m"月"d"日"', '[DBNum1][$-804]yyyy"年"m"月"d"日";@', 'd mmmm yyyy г.', 'e/m/d', 'ee',
  '0.00', '#,##0', '0%', '"ngày "0', '[Red]0.00;[Blue]-0.00', '@', 'General', '0.00E+00', '# ?/?', '[<45000]"Cũ: "yyyy-mm-dd;yyyy-mm-dd',
  'hh "giờ" mm', '"d"0', '[$-409]#,##0.00', 'mmmmm', 'am/pm', 'h AM/PM', '\\d\\m\\y', 'yyyy-mm-dd;@', 'm', '0.0,', 'dd/mm/yyyy\\ hh:mm',
];

/** A tiny seeded generator (the runs are the same every time). */
function random(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { next, pick: <T>(list: T[]): T => list[Math.floor(next() * list.length)] };
}
const column = (n: number): string => {
  let s = '';
  for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
};

const GEN_STRINGS =
  '<si><t>không</t></si><si><t xml:space="preserve">  một  </t></si><si><r><t>h</t></r><r><rPr><b/></rPr><t>ai</t></r></si><si><t></t></si>' +
  '<si><t>Khách &amp; hàng_x000A_</t><rPh><t>ph</t></rPh></si><si/>';
const GEN_TEXTS = ['a', ' a ', '', ' ', 'Nguyễn Văn Ánh', 'x &amp; y', '&lt;b&gt;', '_x000D_', '_x005F_x0041_', '&#65;', 'tab\there', '\u00a0nb\u00a0', '<![CDATA[z]]>', 'p<!--c-->q', '&#x1F600;'];
const GEN_VALUES = ['0', '1', '2', '', ' ', '42', '45000', '0.5', '-3', '1e3', 'abc', '  7 ', '99999999999999999999', '3.14', 'NaN', '2021-01-01'];

/** Sheets of every shape the scanner meets: types, styles, gaps, prefixes, comments, cells without r. */
function generatedBooks(count: number): Parts[] {
  const { next, pick } = random(20261126);
  const cell = (r: number, c: number): string => {
    const p = next() < 0.1 ? 'x:' : '';
    const ref = next() < 0.02 ? '' : ` r="${column(c)}${r}"`;
    const t = pick(['', '', ' t="s"', ' t="s"', ' t="str"', ' t="inlineStr"', ' t="b"', ' t="e"', ' t="n"', ' t="d"']);
    const s = next() < 0.3 ? ` s="${Math.floor(next() * 9)}"` : '';
    const attrs = next() < 0.5 ? ref + t + s : s + t + ref;
    if (next() < 0.08) return `<${p}c${attrs}/>`;
    let inner = '';
    if (t.includes('inlineStr') || next() < 0.05) {
      inner =
        next() < 0.3
          ? `<${p}is><${p}r><${p}t>${pick(GEN_TEXTS)}</${p}t></${p}r><${p}r><${p}t xml:space="preserve">${pick(GEN_TEXTS)}</${p}t></${p}r></${p}is>`
          : `<${p}is><${p}t>${pick(GEN_TEXTS)}</${p}t></${p}is>`;
    }
    if (!t.includes('inlineStr') || next() < 0.1) {
      if (next() < 0.2) inner += `<${p}f>A1</${p}f>`;
      const v = t.includes('"s"')
        ? String(Math.floor(next() * 6))
        : t.includes('str')
          ? pick(GEN_TEXTS)
          : t.includes('"b"')
            ? pick(['0', '1', '1', '2'])
            : t.includes('"d"')
              ? pick(['2021-01-01', 'x', ''])
              : pick(GEN_VALUES);
      if (next() < 0.9) inner += next() < 0.1 ? `<${p}v/>` : `<${p}v>${v}</${p}v>`;
    }
    return `<${p}c${attrs}>${inner}</${p}c>`;
  };
  const sheet = (): string => {
    let out = '';
    let r = 0;
    const rows = Math.floor(next() * 6);
    for (let i = 0; i < rows; i++) {
      r += next() < 0.2 ? 2 + Math.floor(next() * 3) : 1;
      const p = next() < 0.1 ? 'x:' : '';
      const rr = next() < 0.15 ? '' : ` r="${r}"`;
      if (next() < 0.15) {
        out += `<${p}row${rr}/>`;
        continue;
      }
      let cells = '';
      let c = -1;
      const n = Math.floor(next() * 5);
      for (let k = 0; k < n; k++) {
        c += next() < 0.25 ? 2 : 1;
        cells += cell(r, c);
        if (next() < 0.05) cells += '<!-- ghi chú -->';
      }
      out += `<${p}row${rr}${next() < 0.2 ? ' spans="1:3"' : ''}>${cells}</${p}row>`;
    }
    return out;
  };
  return Array.from({ length: count }, () =>
    book(sheet(), {
      strings: next() < 0.9 ? GEN_STRINGS : undefined,
      styles: next() < 0.9 ? STYLES : undefined,
      workbook: next() < 0.2 ? WORKBOOK('<workbookPr date1904="1"/>') : undefined,
    }),
  );
}

/** A good book with one part garbled: characters (and raw bytes, broken UTF-8) inserted, replaced, cut. */
function garbledBooks(count: number): Parts[] {
  const { next, pick } = random(7);
  const good = book(
    '<row r="1" spans="1:5"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Nguyễn &amp; Văn</t></is></c><c r="C1" s="1"><v>45000</v></c><c r="D1" t="s"><v>1</v></c></row>' +
      '<row r="2"><c r="A2" t="str"><f>A1</f><v>x_x0041_</v></c><c r="B2"><v>12</v></c><c r="D2" t="b"><v>1</v></c><c r="E2" s="2"><v>45000.5</v></c></row>',
    { strings: '<si><t>không</t></si><si><r><t>a</t></r><r><t xml:space="preserve"> bÁ</t></r><rPh><t>p</t></rPh></si>', styles: STYLES },
  );
  const bits = ['<', '>', '/', '"', "'", '=', ' ', '&', ':', 'x:', '<!--', '-->', '<![CDATA[', ']]>', '\n', 'r', '1', '&#65;', '_x0041_', '<v>', '</v>', '<t>', '</t>', '<si>', '</si>', '<xf/>', '<row>', '</row>'];
  const rawBytes = [0x80, 0xbf, 0xc3, 0xe1, 0xf0, 0xff, 0xef, 0xbb];
  const names = Object.keys(good);
  const out: Parts[] = [];
  while (out.length < count) {
    const name = pick(names);
    let bytes = [...Buffer.from(good[name])];
    for (let k = 1 + Math.floor(next() * 3); k > 0; k--) {
      const at = Math.floor(next() * bytes.length);
      const op = next();
      const insert = next() < 0.15 ? [pick(rawBytes)] : [...Buffer.from(pick(bits))];
      if (op < 0.4) bytes = [...bytes.slice(0, at), ...insert, ...bytes.slice(at)];
      else if (op < 0.7) bytes = [...bytes.slice(0, at), ...bytes.slice(at + 1 + Math.floor(next() * 4))];
      else bytes = [...bytes.slice(0, at), ...insert, ...bytes.slice(at + 1)];
    }
    const garbled = Buffer.from(bytes).toString('latin1');
    // A cell reference grown to a huge row or column would make both readers fill millions of cells.
    if ([...garbled.matchAll(/r\s*=\s*["']([^"']*)/g)].some(([, v]) => /[A-Za-z]{3}|\d{4}|\d[eE]/.test(v))) continue;
    out.push({ ...good, [name]: new Uint8Array(bytes) });
  }
  return out;
}
