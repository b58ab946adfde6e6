import { CAMPAIGN_MSG, MSG, foldText } from '@tongdai/contracts';
import type { SheetRows } from '../../http/sheet';
import { canonicalNumber } from './decree91.service';

/**
 * Contact imports (ADR 0050): every source (a CRM filter, an XLSX/CSV file, later a Google Sheet)
 * becomes candidates, and one pure function sorts them into rows to store and refused rows with a
 * Vietnamese reason. Nothing here reads a clock or a database.
 */

export interface Candidate {
  /** Where it came from: a file's row (the header is 1), a CRM result's position. */
  row: number;
  name: string;
  /** As written (0…, 84…, +84…, spaces and dots allowed). */
  phone: string;
  fields: Record<string, string>;
  customer_id?: number | null;
}

export interface ContactRow {
  number: string;
  name: string;
  fields: Record<string, string>;
  customer_id: number | null;
}

export interface Refused {
  row: number;
  phone: string;
  name: string;
  message: string;
}

/**
 * The phone in its stored form (84…) or refused: not a Vietnamese number ("Định dạng số điện thoại
 * sai"), the same number on an earlier row, or a number the campaign already has.
 */
export function checkContacts(candidates: readonly Candidate[], inCampaign: ReadonlySet<string>): { valid: ContactRow[]; refused: Refused[] } {
  const seen = new Map<string, number>();
  const valid: ContactRow[] = [];
  const refused: Refused[] = [];
  for (const c of candidates) {
    const refuse = (message: string) => refused.push({ row: c.row, phone: c.phone, name: c.name, message });
    const number = c.phone.trim() === '' ? null : canonicalNumber(c.phone.replace(/[\s.()-]/g, ''));
    if (c.phone.trim() === '') refuse(MSG.required);
    else if (number === null) refuse(MSG.phoneFormat);
    else if (seen.has(number)) refuse(CAMPAIGN_MSG.duplicateInFile(seen.get(number)!));
    else if (inCampaign.has(number)) {
      seen.set(number, c.row);
      refuse(CAMPAIGN_MSG.alreadyInCampaign);
    } else {
      seen.set(number, c.row);
      valid.push({ number, name: c.name.trim().slice(0, 200), fields: c.fields, customer_id: c.customer_id ?? null });
    }
  }
  return { valid, refused };
}

/** Header names people write for a contact's name and phone (folded: no marks, no case, _ for spaces). */
const NAME_HEADERS = ['ten', 'ho_ten', 'ho_va_ten', 'ten_khach_hang', 'khach_hang', 'name', 'full_name', 'customer'];
const PHONE_HEADERS = ['so_dien_thoai', 'dien_thoai', 'sdt', 'so_dt', 'phone', 'mobile', 'di_dong', 'so'];
const fold = (s: string) => foldText(s).trim().replace(/[\s-]+/g, '_');

/** The columns a header most likely means (name, phone), -1 when none. */
export function guessMapping(header: readonly string[]): { name_column: number; phone_column: number } {
  const folded = header.map(fold);
  const find = (names: string[]) => {
    for (const n of names) {
      const i = folded.indexOf(n);
      if (i >= 0) return i;
    }
    return -1;
  };
  return { name_column: find(NAME_HEADERS), phone_column: find(PHONE_HEADERS) };
}

const isBlank = (cells: readonly string[]) => cells.every((c) => !String(c ?? '').trim());

/**
 * A sheet's data rows as candidates: the name and phone columns chosen, every other column with a
 * header becoming one of the contact's fields (by its header, for the script's {{field}}).
 */
export function candidatesOfSheet(rows: SheetRows, mapping: { name_column: number; phone_column: number }): { header: string[]; candidates: Candidate[] } {
  const [header = [], ...body] = rows;
  const names = header.map((h) => String(h ?? '').trim());
  const extra = names.map((h, i) => ({ h, i })).filter(({ h, i }) => h !== '' && i !== mapping.name_column && i !== mapping.phone_column);
  const candidates: Candidate[] = [];
  body.forEach((cells, i) => {
    if (isBlank(cells)) return;
    const cell = (at: number) => String(cells[at] ?? '').trim();
    const fields: Record<string, string> = {};
    for (const { h, i: at } of extra) if (cell(at) !== '') fields[h] = cell(at).slice(0, 1000);
    candidates.push({ row: i + 2, name: mapping.name_column >= 0 ? cell(mapping.name_column) : '', phone: cell(mapping.phone_column), fields });
  });
  return { header: names, candidates };
}
