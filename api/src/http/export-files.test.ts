import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { readSheet } from 'read-excel-file/node';
import { crc32, csvCell, csvFile, StoredZip, tableCrc32, Utf8Lines, xlsxFile, type ExportPage, type RenderedPage } from './export-files';

/**
 * The export files without a server: the CSV's bytes; the .xlsx read back (read-excel-file, as the
 * integration and browser tests do) and opened as a zip by hand — every entry stored, its CRC
 * right, the sheet's rows countable in the bytes (the browser's progress bar); both stop reading
 * pages when the download is cancelled.
 */

async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}
async function* pagesOf(pages: ExportPage[]) {
  yield* pages;
}
/** A rendered page whose CSV is its cells' (as the call history's pages are). */
const rendered = (cells: string[][]): RenderedPage => ({
  length: cells.length,
  cells: () => cells,
  csv: () => Buffer.from(cells.map((r) => `${r.map(csvCell).join(',')}\r\n`).join('')),
});

/** The entries of a zip, read by its central directory: name, method, flags, data (its CRC checked against the header's). */
function unzip(zip: Buffer): Map<string, { method: number; flags: number; data: Buffer }> {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, { method: number; flags: number; data: Buffer }>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const [flags, method, crc, size, nameLength, extra, comment, offset] = [
      zip.readUInt16LE(at + 8), zip.readUInt16LE(at + 10), zip.readUInt32LE(at + 16), zip.readUInt32LE(at + 24),
      zip.readUInt16LE(at + 28), zip.readUInt16LE(at + 30), zip.readUInt16LE(at + 32), zip.readUInt32LE(at + 42),
    ];
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    expect(zip.readUInt32LE(offset)).toBe(0x04034b50);
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const data = zip.subarray(start, start + size);
    expect([name, tableCrc32(data)]).toEqual([name, crc]);
    if (flags & 8) expect([zip.readUInt32LE(start + size), zip.readUInt32LE(start + size + 4), zip.readUInt32LE(start + size + 8)]).toEqual([0x08074b50, crc, size]);
    else expect(zip.readUInt32LE(offset + 14)).toBe(crc);
    out.set(name, { method, flags, data });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

describe('CSV file', () => {
  it('is UTF-8 with a BOM, the headers, then each page’s lines, plain or rendered, quoted and defused', async () => {
    const csv = (await bytesOf(csvFile(['Thời gian', 'Tên'], pagesOf([[['1', 'Nguyễn, "Ba"']], rendered([['2', '=SUM(A1)'], ['3', '-Trần']]), []])))).toString('utf8');
    expect(csv).toBe('\uFEFFThời gian,Tên\r\n1,"Nguyễn, ""Ba"""\r\n2,\'=SUM(A1)\r\n3,\'-Trần\r\n');
  });

  it('writes lines longer than a page was thought to take (the buffer grows), multi-byte and astral characters whole', async () => {
    const long = 'Ánh 😀 '.repeat(3000);
    const page = Array.from({ length: 50 }, (_, i) => [String(i), long]);
    const csv = (await bytesOf(csvFile(['a', 'b'], pagesOf([page])))).toString('utf8');
    expect(csv).toBe(`\uFEFFa,b\r\n${page.map((r) => `${r[0]},${long}\r\n`).join('')}`);
    const lines = new Utf8Lines(1);
    for (const s of ['a', 'ễ'.repeat(5000), '😀', '']) lines.add(s);
    expect(lines.bytes().toString('utf8')).toBe(`a${'ễ'.repeat(5000)}😀`);
  });
});

describe('XLSX file', () => {
  const headers = ['Thời gian', 'Hướng gọi', 'Số gọi'];
  const nasty = ['a & b < c > d', '"quoted" \'single\'', ' leading and trailing ', 'tab\tand\nnewline', 'ctrl\u0001\u0008\u000B\u001Fdropped\u007F', 'Nguyễn Văn Ánh 😀', '=SUM(A1)', '</row>'];

  it('reads back (read-excel-file) as the headers and every row of every page, special characters kept or dropped as XML allows', async () => {
    const pages: ExportPage[] = [
      [['2026-10-31 23:59:59', 'Gọi vào', '0912345678'], nasty.slice(0, 3)],
      rendered([nasty.slice(3, 6), [nasty[6], '', nasty[7]]]),
      [],
      [['x', '', '']],
    ];
    const file = await bytesOf(xlsxFile('Lịch sử cuộc gọi', headers, pagesOf(pages)));
    const sheet = (await readSheet(file, { trim: false })).map((r) => r.map((c) => (c === null ? '' : String(c))));
    expect(sheet).toEqual([
      headers,
      ['2026-10-31 23:59:59', 'Gọi vào', '0912345678'],
      nasty.slice(0, 3),
      nasty.slice(3, 6).map((c) => c.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')),
      [nasty[6], '', nasty[7]],
      ['x', '', ''],
    ]);
    // Stored, not deflated: one "</row>" per row in the bytes (a cell's own "</row>" is escaped), the header included.
    expect(file.toString('latin1').split('</row>')).toHaveLength(sheet.length + 1);
  });

  it('is a zip of stored entries with right CRCs: a one-sheet workbook, the header row bold and frozen, the columns wide enough', async () => {
    const wide = Array.from({ length: 30 }, (_, i) => `Cột ${i + 1}`);
    const file = await bytesOf(xlsxFile('Sheet & "1"', wide, pagesOf([[wide.map((_, i) => `v${i}`)]])));
    const entries = unzip(file);
    expect([...entries.keys()].sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    expect([...entries.values()].every((e) => e.method === 0)).toBe(true);
    expect(entries.get('xl/worksheets/sheet1.xml')!.flags & 8).toBe(8);
    const sheet = entries.get('xl/worksheets/sheet1.xml')!.data.toString('utf8');
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toContain('<c r="AD1" s="1" t="inlineStr"><is><t>Cột 30</t></is></c></row><row r="2">');
    expect(sheet).toContain('<c r="AD2" t="inlineStr"><is><t>v29</t></is></c></row>');
    expect(sheet).toContain('<col min="1" max="1" width="12" customWidth="1"/>');
    expect(entries.get('xl/styles.xml')!.data.toString()).toMatch(/<cellXfs count="2"><xf [^>]*\/><xf numFmtId="0" fontId="1"[^>]*applyFont="1"\/><\/cellXfs>/);
    expect(entries.get('xl/styles.xml')!.data.toString()).toMatch(/<fonts count="2"><font>.*<\/font><font><b\/>/);
    expect(entries.get('xl/workbook.xml')!.data.toString()).toContain('<sheet name="Sheet &amp; &quot;1&quot;" sheetId="1" r:id="rId1"/>');
    expect((await readSheet(file))[1]).toEqual(wide.map((_, i) => `v${i}`));
  });

  it('keeps the CRC of the zip format (zlib’s where Node has it, else a table)', () => {
    for (const data of [Buffer.alloc(0), Buffer.from('123456789'), randomBytes(100_000)]) {
      expect(crc32(data)).toBe(tableCrc32(data));
      expect(crc32(data.subarray(7), crc32(data.subarray(0, 7)))).toBe(tableCrc32(data));
    }
    expect(tableCrc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    // An entry whole or streamed: the same CRC.
    const zip = new StoredZip(new Date('2026-10-31T17:00:00Z'));
    const whole = zip.file('a', Buffer.from('hello'));
    expect(whole.readUInt32LE(14)).toBe(tableCrc32(Buffer.from('hello')));
    expect(whole.readUInt16LE(12)).toBe(((2026 - 1980) << 9) | (11 << 5) | 1); // Vietnam date: 1 Nov 2026
  });
});

describe('cancelled downloads', () => {
  it.each([
    ['CSV', csvFile],
    ['XLSX', (headers: readonly string[], pages: AsyncGenerator<ExportPage>) => xlsxFile('s', headers, pages)],
  ])('%s: stops taking pages once the reader goes away', async (_, file) => {
    let taken = 0;
    let closed = false;
    const pages = (async function* () {
      try {
        for (let i = 0; i < 1000; i++) {
          taken++;
          yield [[String(i), 'x'.repeat(10_000)]];
        }
      } finally {
        closed = true;
      }
    })();
    const stream = file(['a', 'b'], pages);
    // The first page's bytes, then the download is cancelled.
    for await (const _chunk of stream) if (taken) break;
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    expect(taken).toBeLessThan(4);
    // Cancelled at the first bytes (before a page was written): the pages are closed all the same.
    const untouched = (async function* () {
      for (let i = 0; i < 1000; i++) yield [[String(i)]];
    })();
    for await (const _chunk of file(['a', 'b'], untouched)) break;
    await new Promise((r) => setTimeout(r, 50));
    expect(await untouched.next()).toEqual({ done: true, value: undefined });
  });
});
