import { readSheet } from 'read-excel-file/node';

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
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semis++;
  }
  return semis > commas ? ';' : ',';
}

export function parseCsv(text: string): SheetRows {
  const src = text.replace(/^\uFEFF/, '');
  const sep = delimiterOf(src);
  const rows: SheetRows = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === sep) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
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

/** The first sheet's rows, or null when the file is neither .xlsx nor CSV text. */
export async function readRows(bytes: Buffer): Promise<SheetRows | null> {
  if (isZip(bytes)) {
    try {
      const data = await readSheet<string>(bytes, { parseNumber: (s) => s, trim: true });
      return data.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString() : String(cell))));
    } catch {
      return null;
    }
  }
  const text = asText(bytes);
  return text === null ? null : parseCsv(text);
}
