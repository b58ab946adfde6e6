/**
 * Column widths for the product's tables, which lay their columns out fixed (Fluent's Table): a column
 * with a width keeps it, the others share what is left equally. A header must never be cut nor run
 * over more than two lines (issue 39), whatever the data: a list draws its table only once it has rows,
 * and the row actions' column comes with them, so a header that fitted on an empty test database ran
 * over three lines once earlier tests had left calls ("Luồng cuộc gọi" on /call-history, ci of stop 57).
 *
 * So each header's need is worked out from its own words: the width of its longer line when split in
 * two at the best space. A column with a width gets at least that; the columns without share equally, so
 * the table is made at least as wide as their number times the largest need among them (and each one's
 * floor, COLUMN_MIN_WIDTH). Below that width the table's card scrolls sideways; the page never does.
 */

/**
 * Em per character of a header, with room: the fallback sans-serif Debian's Chromium draws the product
 * in (DejaVu Sans; Segoe UI is not there) measures 0.58–0.69 em a character at semibold, 14 px.
 */
const EM_PER_CHAR = 0.7;
/** A header cell's padding (8 px each side) and a little more, so a measured-tight header does not wrap. */
const CELL_ROOM = '24px';
/**
 * A cell's horizontal padding (Fluent's 8 px each side): a column's CSS width is its content's, so the column
 * takes this more on the screen (a list of four fixed columns and the actions left its name 72 px, not 136).
 */
const CELL_PADDING = '16px';

/** What a column without a width may shrink to: a short word, a duration, a badge ("Trả lời"). */
export const COLUMN_MIN_WIDTH = '5.5em';

/** The characters of the longer line when `text` is split in two at the space that makes it shortest. */
export function twoLineChars(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const len = (ws: string[]) => [...ws.join(' ')].length;
  let best = len(words);
  for (let i = 1; i < words.length; i++) best = Math.min(best, Math.max(len(words.slice(0, i)), len(words.slice(i))));
  return best;
}

/** The width a header's text needs to stay on two lines at most (none for an empty header). */
export function headerWidth(text: string): string | undefined {
  const chars = twoLineChars(text);
  return chars ? `calc(${Math.round(chars * EM_PER_CHAR * 100) / 100}em + ${CELL_ROOM})` : undefined;
}

export interface SizedColumn {
  header: string;
  /** A CSS width; none: the column shares what the others leave. */
  width?: string;
}

/**
 * Each column's CSS width (its own, raised to what its header needs; undefined for a sharing column) and
 * the table's minimum width: the fixed columns with their padding, and each sharing column's share (a
 * share is the column's whole width, its padding within).
 */
export function tableWidths(columns: SizedColumn[]): { widths: (string | undefined)[]; minWidth: string } {
  const widths = columns.map((c) => {
    if (!c.width) return undefined;
    const need = headerWidth(c.header);
    return need ? `max(${c.width}, ${need})` : c.width;
  });
  const sharing = columns.filter((c) => !c.width);
  // Every sharing column gets the same share: the widest need among them, so none is short of its own.
  const needs = sharing.map((c) => headerWidth(c.header)).filter((w): w is string => !!w);
  const share = needs.length ? `max(${[COLUMN_MIN_WIDTH, ...needs].join(', ')})` : COLUMN_MIN_WIDTH;
  const parts = [...widths.filter((w): w is string => !!w).map((w) => `${w} + ${CELL_PADDING}`), ...(sharing.length ? [`${sharing.length} * ${share}`] : [])];
  return { widths, minWidth: parts.length ? `calc(${parts.join(' + ')})` : '0' };
}
