import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Zip archives and .xlsx files built byte by byte, to send the API what an attacker would: a
 * small file that unpacks to a lot (issue 12 §1), a central directory that lies about the sizes,
 * a sheet with too many rows.
 */
export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Size written into the headers instead of the real one (a lying archive). */
  declaredSize?: number;
}

function header(length: number, signature: number, fields: [at: number, value: number, bytes: 2 | 4][]): Buffer {
  const b = Buffer.alloc(length);
  b.writeUInt32LE(signature, 0);
  for (const [at, value, bytes] of fields) {
    if (bytes === 2) b.writeUInt16LE(value, at);
    else b.writeUInt32LE(value, at);
  }
  return b;
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = deflateRawSync(e.data, { level: 9 });
    const size = e.declaredSize ?? e.data.length;
    const crc = crc32(e.data);
    // Method (deflate), CRC, sizes and name length: the central header has them 2 bytes further on.
    const fields = (at: number): [number, number, 2 | 4][] => [
      [at + 8, 8, 2],
      [at + 14, crc, 4],
      [at + 18, packed.length, 4],
      [at + 22, size, 4],
      [at + 26, name.length, 2],
    ];
    const local = header(30, 0x04034b50, [[4, 20, 2], ...fields(0)]);
    const central = header(46, 0x02014b50, [[4, 20, 2], [6, 20, 2], ...fields(2), [42, offset, 4]]);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
/** One row of inline-string cells. */
export const sheetRow = (r: number, cells: string[]): string =>
  `<row r="${r}">${cells.map((c, i) => `<c r="${String.fromCharCode(65 + i)}${r}" t="inlineStr"><is><t>${escapeXml(c)}</t></is></c>`).join('')}</row>`;

/** A one-sheet .xlsx whose sheet data is `rowsXml` (the rows' XML, see sheetRow). */
export function xlsx(rowsXml: string | Buffer, declaredSheetSize?: number): Buffer {
  const head = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  const sheet = Buffer.concat([Buffer.from(head), Buffer.isBuffer(rowsXml) ? rowsXml : Buffer.from(rowsXml), Buffer.from('</sheetData></worksheet>')]);
  return zip([
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(RELS) },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize: declaredSheetSize },
  ]);
}

/**
 * A few-kB .xlsx that unpacks to about `mb` MB: one row whose cell holds a long run of one letter.
 * With `lie`, the headers claim the sheet is 1 kB.
 */
export function xlsxBomb(mb: number, lie = false): Buffer {
  const filler = Buffer.alloc(mb * 1024 * 1024, 'a');
  const rows = Buffer.concat([Buffer.from('<row r="1"><c r="A1" t="inlineStr"><is><t>'), filler, Buffer.from('</t></is></c></row>')]);
  return xlsx(rows, lie ? 1024 : undefined);
}
