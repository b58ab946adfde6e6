// The first sheet of an .xlsx as rows of text cells, read in one pass over each XML part's bytes:
// no DOM, no object per cell, no copy of a part as a string; only the cells' own text is decoded
// (UTF-8), and the rows are written directly. Plain JavaScript on purpose: it runs inside the
// sheet worker (sheet-worker.mjs), outside tsx and Jest's transform.
//
// It answers what read-excel-file 9.3 answered (parseSheet with `parseNumber: (s) => s, trim: true`,
// the sheet worker's reader until now), cell for cell, mapped to text as the worker did (null → '',
// Date → toISOString(), else String): the same choice of sheet (the first <sheet> of workbook.xml,
// its r:id looked up in xl/_rels/workbook.xml.rels), shared strings (rich text runs joined,
// phonetic runs left out), inline strings, formula results, booleans, error cells (empty), numbers
// as their digits, dates by the cell's style in the 1900 or 1904 system, strings trimmed, _xHHHH_
// escapes, and the same empty rows and columns kept (at the top and left) or dropped (at the
// bottom and right). Its XML tokenizer follows read-excel-file's (a copy of saxen): text between
// tags with only &amp; &lt; &gt; &quot; &apos; and numeric references decoded, CDATA and comments
// skipped, element and attribute prefixes dropped (<x:row>, r:id), the same well-formedness
// errors. Where read-excel-file throws (a missing part, no sheet, a cell without `r`, a shared
// string index out of range, a number with an unknown style…) scanXlsx throws: the worker answers
// `invalid` to both.
//
// Positions are byte offsets: every character the XML syntax uses is ASCII, and UTF-8 never puts
// an ASCII byte inside a multi-byte character, so decoding a cell's bytes alone gives the text
// decoding the whole part would have given there (U+FFFD for broken sequences included).

/** What read-excel-file would have thrown on: the worker reads it as "not a spreadsheet". */
export class XlsxError extends Error {}
const fail = (message) => {
  throw new XlsxError(message);
};

// ---------------------------------------------------------------------------------------------
// Text: UTF-8, then saxen's entity decoding; the _xHHHH_ escapes of ST_Xstring (ECMA-376 §22.9.2.19).

/** The text of bytes [from, to): a new string, which keeps no part of the XML alive. */
const utf8 = (b, from, to) => b.toString('utf8', from, to);

const ENTITY_PATTERN = /&#(\d+);|&#x([0-9a-f]+);|&(\w+);/gi;
const ENTITIES = { amp: '&', apos: "'", gt: '>', lt: '<', quot: '"', AMP: '&', APOS: "'", GT: '>', LT: '<', QUOT: '"' };
function replaceEntity(_, d, x, z) {
  if (z) return Object.hasOwn(ENTITIES, z) ? ENTITIES[z] : `&${z};`;
  // fromCharCode as saxen does: a reference above U+FFFF keeps its low 16 bits.
  if (d) return String.fromCharCode(d);
  return String.fromCharCode(parseInt(x, 16));
}
const decodeEntities = (s) => (s.length > 3 && s.indexOf('&') !== -1 ? s.replace(ENTITY_PATTERN, replaceEntity) : s);
/** The text content of bytes [from, to) as read-excel-file's handlers received it. */
const textOf = (b, from, to) => decodeEntities(utf8(b, from, to));

const unescapeXlsx = (s) => (s.indexOf('_x') < 0 ? s : s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))));

// ---------------------------------------------------------------------------------------------
// The tokenizer: saxen's parse loop (no namespace mode) over bytes, reporting positions.

const isSpace = (w) => w === 32 || (w < 14 && w > 8);
const isNameChar = (w) => (w > 96 && w < 123) || (w > 64 && w < 91) || (w > 47 && w < 59) || w === 45 || w === 95 || w === 46;

/** Whether bytes [from, to) are the ASCII `name`. */
function named(b, from, to, name) {
  if (to - from !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (b[from + k] !== name.charCodeAt(k)) return false;
  return true;
}

/**
 * Calls open(localStart, nameEnd, attrsStart, attrsEnd), close(localStart, nameEnd) and
 * text(from, to) over the bytes `b`. The local name is the element name after its first `:`;
 * text is reported inside the root element only.
 */
function walk(b, open, close, text) {
  const n = b.length;
  const stack = []; // raw name start, raw name end, local name start of each open element
  let depth = 0;
  let rootFound = false;
  let j = 0;
  for (;;) {
    let i = j;
    while (i < n && b[i] !== 60) i++;
    if (i >= n) {
      if (depth) fail('unexpected end of file');
      if (!rootFound) fail('missing start tag');
      return;
    }
    rootFound = true;
    if (j !== i && depth) text(j, i);
    const w = b[i + 1];
    if (w === 33) {
      // <!
      if (b[i + 2] === 91 && named(b, i + 3, i + 9, 'CDATA[')) {
        // read-excel-file listens to no CDATA: its text is dropped.
        j = b.indexOf(']]>', i);
        if (j === -1) fail('unclosed cdata');
        j += 3;
        continue;
      }
      if (b[i + 2] === 45 && b[i + 3] === 45) {
        j = b.indexOf('-->', i);
        if (j === -1) fail('unclosed comment');
        j += 3;
        continue;
      }
    }
    if (w === 63) {
      // <? … ?>
      j = b.indexOf('?>', i);
      if (j === -1) fail('unclosed question');
      j += 2;
      continue;
    }
    // The tag's '>', quoted attribute values skipped (an unpaired quote is passed over).
    let end = i + 1;
    for (;; end++) {
      if (end >= n) fail('unclosed tag');
      const v = b[end];
      if (v === 62) break;
      if (v === 34 || v === 39) {
        const q = b.indexOf(v, end + 1);
        if (q !== -1) end = q;
      }
    }
    j = end + 1;
    if (w === 33) continue; // <!DOCTYPE …> and the like
    if (w === 47) {
      // </name>: the innermost open element's name, then only white space.
      if (!depth) fail('missing open tag');
      depth--;
      const start = stack[3 * depth];
      const len = stack[3 * depth + 1] - start;
      for (let k = 0; k < len; k++) if (b[i + 2 + k] !== b[start + k]) fail('closing tag mismatch');
      for (let q = i + 2 + len; q < end; q++) if (!isSpace(b[q])) fail('close tag');
      close(stack[3 * depth + 2], start + len);
      continue;
    }
    const selfClosing = b[end - 1] === 47;
    const tagEnd = selfClosing ? end - 1 : end;
    if (!((w > 96 && w < 123) || (w > 64 && w < 91) || w === 95 || w === 58)) fail('illegal first char nodeName');
    let nameEnd = tagEnd;
    for (let q = i + 2; q < tagEnd; q++) {
      const c = b[q];
      if (isNameChar(c)) continue;
      if (isSpace(c)) {
        nameEnd = q;
        break;
      }
      fail('invalid nodeName');
    }
    let local = i + 1;
    for (let q = i + 1; q < nameEnd; q++) {
      if (b[q] === 58) {
        local = q + 1;
        break;
      }
    }
    if (!selfClosing) {
      stack[3 * depth] = i + 1;
      stack[3 * depth + 1] = nameEnd;
      stack[3 * depth + 2] = local;
      depth++;
    }
    open(local, nameEnd, nameEnd, tagEnd);
    if (selfClosing) close(local, nameEnd);
  }
}

// The attributes of the tag read last: raw name start/end, value start/end, as saxen's getAttrs
// reads them (what it warns about is left out, as there; a repeated name keeps the first).
const attrs = [];
let attrCount = 0;

function readAttrs(b, from, to) {
  attrCount = 0;
  let i = from;
  let j;
  let w;
  parse: for (; i < to; i++) {
    let skip = false;
    w = b[i];
    if (isSpace(w)) continue;
    if ((w < 65 || w > 122 || (w > 90 && w < 97)) && w !== 95 && w !== 58) skip = true;
    for (j = i + 1; j < to; j++) {
      w = b[j];
      if (isNameChar(w)) continue;
      if (isSpace(w)) {
        // "missing attribute value": `r = "A1"` is not read either
        i = j;
        continue parse;
      }
      if (w === 61) break;
      skip = true;
    }
    const nameStart = i;
    const nameEnd = j;
    if (named(b, nameStart, nameEnd, 'xmlns:xmlns')) skip = true;
    // (From `to` on is outside the tag: saxen read a string that ended there.)
    w = j + 1 < to ? b[j + 1] : NaN;
    if (w === 34 || w === 39) {
      i = j + 2;
      j = b.indexOf(w, i);
      if (j >= to) j = -1;
      if (j === -1) {
        j = b.indexOf(w === 34 ? 39 : 34, i);
        if (j >= to) j = -1;
        if (j !== -1) skip = true;
      }
    } else {
      skip = true;
      for (j = j + 1; j < to; j++) if (j + 1 < to && isSpace(b[j + 1])) break;
    }
    if (j === -1) {
      j = to;
      skip = true;
    }
    const valueStart = i;
    const valueEnd = j;
    i = j;
    for (; j + 1 < to; j++) {
      if (isSpace(b[j + 1])) break;
      if (i === j) skip = true; // "illegal character after attribute end"
    }
    i = j + 1;
    if (skip) continue;
    let seen = false;
    for (let k = 0; k < attrCount && !seen; k++) {
      const s = attrs[4 * k];
      const len = attrs[4 * k + 1] - s;
      if (len !== nameEnd - nameStart) continue;
      seen = true;
      for (let q = 0; q < len; q++) {
        if (b[s + q] !== b[nameStart + q]) {
          seen = false;
          break;
        }
      }
    }
    if (seen) continue;
    attrs[4 * attrCount] = nameStart;
    attrs[4 * attrCount + 1] = nameEnd;
    attrs[4 * attrCount + 2] = valueStart;
    attrs[4 * attrCount + 3] = valueEnd;
    attrCount++;
  }
}

/** Where attribute k's name starts without its prefix (an `xmlns:` prefix is kept, as read-excel-file does). */
function localStart(b, k) {
  const s = attrs[4 * k];
  const e = attrs[4 * k + 1];
  for (let q = s; q < e; q++) if (b[q] === 58 && !(q - s === 5 && named(b, s, q, 'xmlns'))) return q + 1;
  return s;
}

/**
 * The value read-excel-file saw as `attributes[local]` of the tag read last: it copied every
 * attribute, in order, under its name without prefix, decoding entities as it went.
 */
function attr(b, local) {
  let value;
  for (let k = 0; k < attrCount; k++) {
    const ls = localStart(b, k);
    if (!named(b, ls, attrs[4 * k + 1], local)) continue;
    // An unprefixed name decodes again what a prefixed one copied there before it.
    value = decodeEntities(ls === attrs[4 * k] && value !== undefined ? value : utf8(b, attrs[4 * k + 2], attrs[4 * k + 3]));
  }
  return value;
}

/** The one attribute named `local` (-1: none, -2: several, read with attr()). */
function attrIndex(b, local) {
  let found = -1;
  for (let k = 0; k < attrCount; k++) {
    if (!named(b, localStart(b, k), attrs[4 * k + 1], local)) continue;
    if (found !== -1) return -2;
    found = k;
  }
  return found;
}

/** The value of bytes [from, to) when they are 1 to 15 ASCII digits (Number() of their text), else -1. */
function digits(b, from, to) {
  if (to <= from || to - from > 15) return -1;
  let value = 0;
  for (let q = from; q < to; q++) {
    const c = b[q] - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// workbook.xml, its rels, sharedStrings.xml, styles.xml

const RELATIONSHIPS = ['http://schemas.openxmlformats.org/officeDocument/2006/relationships/', 'http://purl.oclc.org/ooxml/officeDocument/relationships/'];
const none = () => {};

/** Where the sheets, shared strings and styles are (paths inside the archive). */
function readRels(b) {
  const paths = { sheets: {}, sharedStrings: undefined, styles: undefined };
  // "/xl/worksheets/sheet1.xml" from the archive's root, anything else from xl/.
  const path = (target) => (target[0] === '/' ? target.slice(1) : `xl/${target}`);
  walk(
    b,
    (ls, le, as, ae) => {
      if (!named(b, ls, le, 'Relationship')) return;
      readAttrs(b, as, ae);
      const type = attr(b, 'Type');
      const cut = type === undefined ? -1 : type.lastIndexOf('/') + 1;
      const part = cut > 0 && RELATIONSHIPS.includes(type.slice(0, cut)) ? type.slice(cut) : '';
      if (part === 'styles') paths.styles = path(attr(b, 'Target'));
      else if (part === 'sharedStrings') paths.sharedStrings = path(attr(b, 'Target'));
      else if (part === 'worksheet') paths.sheets[attr(b, 'Id')] = path(attr(b, 'Target'));
    },
    none,
    none,
  );
  return paths;
}

/** How many sheets the workbook lists, the first one's relation id, and the date system. */
function readWorkbook(b) {
  let epoch1904;
  let sheets = 0;
  let first;
  walk(
    b,
    (ls, le, as, ae) => {
      if (named(b, ls, le, 'workbookPr')) {
        if (epoch1904 !== undefined) return; // the first one counts
        readAttrs(b, as, ae);
        epoch1904 = attr(b, 'date1904') === '1';
      } else if (named(b, ls, le, 'sheet')) {
        readAttrs(b, as, ae);
        if (!attr(b, 'name')) return;
        if (sheets++ === 0) first = attr(b, 'id');
      }
    },
    none,
    none,
  );
  return { epoch1904: epoch1904 === true, sheets, first };
}

/** The shared strings table: one string per <si>, its <t> or its rich text runs' <t> joined. */
function readSharedStrings(b) {
  const strings = [];
  let si = false;
  let t = false;
  let r = false;
  let rPh = false;
  let value = '';
  walk(
    b,
    (ls, le) => {
      if (named(b, ls, le, 'si')) {
        si = true;
        t = r = rPh = false;
        value = '';
      } else if (si) {
        if (named(b, ls, le, 't')) t = true;
        else if (named(b, ls, le, 'r')) r = true;
        else if (named(b, ls, le, 'rPh')) rPh = true;
      }
    },
    (ls, le) => {
      if (named(b, ls, le, 'si')) {
        if (!si) fail('</si> outside a string');
        strings.push(unescapeXlsx(value));
        si = false;
      } else if (si) {
        if (named(b, ls, le, 't')) t = false;
        else if (named(b, ls, le, 'r')) r = false;
        else if (named(b, ls, le, 'rPh')) rPh = false;
      }
    },
    (from, to) => {
      if (!si || rPh || !t) return; // phonetic runs are left out
      const text = textOf(b, from, to);
      value = r ? value + text : text;
    },
  );
  return strings;
}

/**
 * The cell styles (cellXfs), each with its number format `{ id, template? }` if it names one; a
 * style with xfId > 0 takes its base style's (cellStyleXfs) format unless it has its own.
 */
function readStyles(b) {
  const formats = [];
  const base = [];
  const styles = [];
  let inBase = false;
  let inCells = false;
  const formatOf = (numFmtId, custom) => {
    if (!numFmtId) return undefined;
    const id = Number(numFmtId);
    return (custom && formats[id]) || { id };
  };
  walk(
    b,
    (ls, le, as, ae) => {
      if (named(b, ls, le, 'numFmt')) {
        readAttrs(b, as, ae);
        const id = Number(attr(b, 'numFmtId'));
        // Ids from 100 on may be redefined with a template (as Excel 2007 allows).
        formats[id] = id >= 100 ? { id, template: attr(b, 'formatCode') } : { id };
      } else if (named(b, ls, le, 'cellStyleXfs')) inBase = true;
      else if (named(b, ls, le, 'cellXfs')) inCells = true;
      else if (named(b, ls, le, 'xf')) {
        if (inBase) {
          readAttrs(b, as, ae);
          base.push({ numberFormat: formatOf(attr(b, 'numFmtId'), false) });
        } else if (inCells) {
          readAttrs(b, as, ae);
          const xfId = attr(b, 'xfId');
          styles.push({ numberFormat: formatOf(attr(b, 'numFmtId'), true), xfId: xfId ? Number(xfId) : 0 });
        }
      }
    },
    (ls, le) => {
      if (named(b, ls, le, 'cellStyleXfs')) inBase = false;
      else if (named(b, ls, le, 'cellXfs')) inCells = false;
    },
    none,
  );
  return styles.map((style) => ({ numberFormat: style.xfId && !style.numberFormat ? base[style.xfId]?.numberFormat : style.numberFormat }));
}

// ---------------------------------------------------------------------------------------------
// Dates: read-excel-file's rule for telling a date style from a number style, and its conversion.

// Built-in number formats meant for dates: locale-independent ones, then Chinese, Japanese and
// Korean, Thai ones.
export const BUILT_IN_DATE_FORMAT_IDS = [14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81];

const DATE_FORMAT_TOKENS = ['s', 'ss', 'm', 'mm', 'h', 'hh', 'am', 'pm', 'a', 'p', 'd', 'dd', 'ddd', 'dddd', 'aaa', 'aaaa', 'aaaaa', 'mmm', 'mmmm', 'mmmmm', 'y', 'yy', 'yyyy', 'e', 'ee', 'eeee'];

/** Whether a custom number format's code formats a date (read-excel-file's isDateFormatTemplate). */
export function isDateFormatTemplate(template) {
  const parts = template
    .toLowerCase()
    .replace(/;@$/, '') // "text as typed" ending
    .replace(/\\./g, ' ') // escaped characters
    .split(';');
  return parts.some((part) => {
    const tokens = part
      .replace(/"[^"]*"/g, ' ') // quoted text
      .replace(/(\[?[smhd]{1,2}\]?)[.,]00?0?/g, '$1') // fractions of a second
      .replace(/\[([smhd]{1,2})\]/g, '$1') // elapsed time
      .replace(/\[[^\]]*\]/g, '') // colours, locales, conditions
      .split(/[^a-z0#?%]+/)
      .filter((token) => token);
    return tokens.length > 0 && tokens.every((token) => DATE_FORMAT_TOKENS.includes(token));
  });
}

/** Milliseconds since 1970 of an Excel serial date (read-excel-file's parseExcelTimestamp, same arithmetic). */
function excelTimestamp(serial, epoch1904) {
  if (epoch1904) serial += 4 * 365 + 1 + 1;
  return Math.floor((serial - (1 + 1 + 70 * 365 + 17)) * 24 * 60 * 60 * 1000);
}

// ---------------------------------------------------------------------------------------------
// The sheet

// A cell address as read-excel-file's parseCellAddress reads it ("AA12" → row 12, column 27).
let addressRow = 0;
let addressColumn = 0;
function parseAddress(address) {
  let column = 0;
  for (let i = 0; i < address.length; i++) {
    const c = address.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      const row = Number(address.slice(i));
      if (isNaN(row)) break;
      addressRow = row;
      addressColumn = column;
      return;
    }
    column = column * 26 + (c - 64);
  }
  fail(`<c r="${address}">`);
}
/** The same for bytes [from, to) that are 1-3 capitals then 1-9 digits; false for anything else. */
function parseAddressBytes(b, from, to) {
  let q = from;
  let column = 0;
  while (q < to && q - from < 3 && b[q] >= 65 && b[q] <= 90) column = column * 26 + (b[q++] - 64);
  if (q === from || to - q > 9) return false;
  const row = digits(b, q, to);
  if (row < 0) return false;
  addressRow = row;
  addressColumn = column;
  return true;
}

/** A date cell out of range: read-excel-file's rows held an Invalid Date, whose toISOString() threw. */
const BAD_DATE = Symbol('invalid date');
const NO_ROW = [];

function readSheet(b, strings, styles, epoch1904) {
  const dateStyles = [];
  const dateFormats = [];
  const isDateStyle = (index) => {
    let known = dateStyles[index];
    if (known === undefined) {
      const format = styles[index].numberFormat;
      known = false;
      if (format) {
        if (BUILT_IN_DATE_FORMAT_IDS.includes(format.id)) known = true;
        else if (format.template) {
          // Cached by format id, as read-excel-file does.
          if (dateFormats[format.id] === undefined) dateFormats[format.id] = isDateFormatTemplate(format.template);
          known = dateFormats[format.id];
        }
      }
      dateStyles[index] = known;
    }
    return known;
  };
  const trimmed = (s) => {
    const t = s.trim();
    return t === '' ? null : t;
  };

  let sheetData = false;
  let rows = [];
  const row = []; // the cells of the row being read
  let rowOpen = false;
  let rowNumber;
  let cursorRow = 0;
  let cursorColumn = 0;
  let rowCount = 0;
  let columnCount = 0;
  let dataRowCount = 0;
  let dataColumnCount = 0;
  let badDates = 0;
  // The cell being read: where it is, its type and style, its <v> (the bytes of its last text, or
  // a string once decoded), its inline string, and which of its elements is open.
  let inCell = false;
  let cellRow = 0;
  let cellColumn = 0;
  let cellT;
  let cellStyled = false;
  let cellStyle = 0;
  let vBytes = false;
  let vFrom = 0;
  let vTo = 0;
  let vText;
  let inline;
  let inV = false;
  let inIs = false;
  let inT = false;
  let inR = false;
  let inRPh = false;

  const vString = () => (vBytes ? textOf(b, vFrom, vTo) : vText);

  /** The cell's value as text (null when empty), or throws where read-excel-file reported a cell error. */
  const cellValue = () => {
    const empty = !vBytes && !vText;
    switch (cellT || 'n') {
      case 'str':
        return empty ? null : trimmed(vString());
      case 'inlineStr':
        return inline === undefined ? null : trimmed(inline);
      case 's': {
        if (empty) return null;
        let index = vBytes ? digits(b, vFrom, vTo) : -1;
        if (index < 0) index = Number(vString());
        if (isNaN(index) || strings[index] === undefined) fail('VALUE_INVALID');
        return trimmed(strings[index]);
      }
      case 'b': {
        if (empty) return null;
        const v = vString();
        if (v === '1') return 'true';
        if (v === '0') return 'false';
        return fail('VALUE_INVALID');
      }
      case 'e':
        return null;
      case 'd': {
        if (empty) return null;
        const date = new Date(vString());
        if (isNaN(date.valueOf())) fail('VALUE_INVALID');
        return date.toISOString();
      }
      case 'n': {
        if (empty) return null;
        const v = vString();
        if (cellStyled) {
          if (isNaN(cellStyle) || styles[cellStyle] === undefined) fail('FORMAT_INVALID');
          if (isDateStyle(cellStyle)) {
            const serial = Number(v);
            if (isNaN(serial)) fail('VALUE_INVALID');
            const date = new Date(excelTimestamp(serial, epoch1904));
            if (isNaN(date.valueOf())) {
              badDates++;
              return BAD_DATE;
            }
            return date.toISOString();
          }
        }
        return v; // parseNumber: (s) => s
      }
      default:
        return fail('TYPE_INVALID');
    }
  };

  /** <c>: its r (where), t (type) and s (style) attributes, read without a string where they are plain. */
  const openCell = () => {
    let k = attrIndex(b, 'r');
    if (k === -1) fail('<c> without r');
    if (k === -2 || !parseAddressBytes(b, attrs[4 * k + 2], attrs[4 * k + 3])) parseAddress(attr(b, 'r'));
    cellRow = addressRow;
    cellColumn = addressColumn;
    k = attrIndex(b, 't');
    cellT = undefined;
    if (k >= 0) {
      const from = attrs[4 * k + 2];
      const to = attrs[4 * k + 3];
      if (named(b, from, to, 's')) cellT = 's';
      else if (named(b, from, to, 'n')) cellT = 'n';
      else if (named(b, from, to, 'str')) cellT = 'str';
      else if (named(b, from, to, 'inlineStr')) cellT = 'inlineStr';
    }
    if (k !== -1 && cellT === undefined) cellT = attr(b, 't');
    k = attrIndex(b, 's');
    const style = k >= 0 ? digits(b, attrs[4 * k + 2], attrs[4 * k + 3]) : -1;
    if (style >= 0) {
      cellStyled = true;
      cellStyle = style;
    } else {
      const s = k === -1 ? undefined : attr(b, 's');
      cellStyled = !!s;
      cellStyle = cellStyled ? Number(s) : 0;
    }
  };

  const open = (ls, le, as, ae) => {
    const len = le - ls;
    if (len === 1 && b[ls] === 99) {
      // <c>
      if (!sheetData) return;
      readAttrs(b, as, ae);
      openCell();
      inCell = true;
      vBytes = false;
      vText = inline = undefined;
      inV = inIs = inT = inR = inRPh = false;
    } else if (len === 9 && named(b, ls, le, 'dimension')) {
      readAttrs(b, as, ae);
      for (const address of attr(b, 'ref').split(':')) parseAddress(address);
    } else if (len === 9 && named(b, ls, le, 'sheetData')) {
      // (A second one starts over, as read-excel-file's state did.)
      sheetData = true;
      rows = [];
      row.length = 0;
      rowOpen = inCell = false;
      rowNumber = undefined;
      cursorRow = cursorColumn = rowCount = columnCount = dataRowCount = dataColumnCount = badDates = 0;
    } else if (!sheetData) {
      return;
    } else if (len === 3 && named(b, ls, le, 'row')) {
      readAttrs(b, as, ae);
      const k = attrIndex(b, 'r');
      const plain = k >= 0 ? digits(b, attrs[4 * k + 2], attrs[4 * k + 3]) : -1;
      if (plain > 0) rowNumber = plain;
      else if (k !== -1) {
        const r = attr(b, 'r');
        if (r) rowNumber = Number(r);
      }
      row.length = 0;
      rowOpen = true;
    } else if (inCell) {
      if (len === 1) {
        const c = b[ls];
        if (c === 118) inV = true;
        else if (c === 116) inT = true;
        else if (c === 114) inR = true;
      } else if (len === 2 && named(b, ls, le, 'is')) {
        inIs = true;
        inline = '';
      } else if (len === 3 && named(b, ls, le, 'rPh')) inRPh = true;
    }
  };

  const close = (ls, le) => {
    if (!sheetData) return;
    const len = le - ls;
    if (len === 1 && b[ls] === 99) {
      // </c>
      if (!inCell) fail('</c> outside a cell');
      const value = cellValue();
      if (cellRow < cursorRow || (cellRow === cursorRow && cellColumn <= cursorColumn)) fail(`Out-of-place <c/> at row ${cellRow} col ${cellColumn}`);
      cursorRow = cellRow;
      cursorColumn = cellColumn;
      if (!rowNumber) rowNumber = cellRow;
      if (value !== null) {
        if (!rowOpen) fail('<c> outside a row');
        while (cellColumn > row.length + 1) row.push('');
        row.push(value);
        if (cellColumn > dataColumnCount) dataColumnCount = cellColumn;
      }
      if (cellColumn > columnCount) columnCount = cellColumn;
      inCell = false;
    } else if (len === 3 && named(b, ls, le, 'row')) {
      if (rowNumber) {
        if (rowNumber <= rows.length) fail(`Out-of-place <row/> number ${rowNumber}`);
        while (rowNumber > rows.length + 1) rows.push(NO_ROW);
      }
      if (!rowOpen) fail('</row> outside a row');
      // Exactly as long as needed, and padded already to the columns seen so far (a row shorter
      // than the widest one is padded in the end anyway), so that few rows are copied twice.
      let cells = NO_ROW;
      if (row.length < dataColumnCount) {
        cells = new Array(dataColumnCount);
        for (let k = 0; k < row.length; k++) cells[k] = row[k];
        cells.fill('', row.length);
      } else if (row.length) cells = row.slice();
      rows.push(cells);
      if (row.length > 0) dataRowCount = rowNumber;
      if (rowNumber > rowCount) rowCount = rowNumber;
      rowOpen = false;
      rowNumber = undefined;
    } else if (inCell) {
      if (len === 1) {
        const c = b[ls];
        if (c === 118) {
          // </v>: present but empty is '', not undefined (a formula whose result is '').
          inV = false;
          if (!vBytes && !vText) vText = '';
          if (cellT === 'str') {
            vText = unescapeXlsx(vString());
            vBytes = false;
          }
        } else if (c === 116) inT = false;
        else if (c === 114) inR = false;
      } else if (len === 2 && named(b, ls, le, 'is')) {
        inIs = false;
        inline = unescapeXlsx(inline);
      } else if (len === 3 && named(b, ls, le, 'rPh')) inRPh = false;
    }
  };

  const text = (from, to) => {
    if (!inCell) return;
    if (inV) {
      // The last text in <v> counts (a comment splits it).
      vBytes = true;
      vFrom = from;
      vTo = to;
    } else if (inIs && !inRPh && inT) {
      const s = textOf(b, from, to);
      inline = inR ? inline + s : s;
    }
  };

  walk(b, open, close, text);
  if (!sheetData) fail('no <sheetData>');

  // Empty rows at the bottom and empty columns at the right are dropped; the rest is padded.
  if (dataRowCount < rowCount) rows = rows.slice(0, dataRowCount);
  for (let i = 0; i < rows.length; i++) {
    let cells = rows[i];
    if (dataColumnCount < columnCount && cells.length > dataColumnCount) cells = cells.slice(0, dataColumnCount);
    if (cells.length < dataColumnCount) {
      const padded = new Array(dataColumnCount);
      for (let k = 0; k < cells.length; k++) padded[k] = cells[k];
      cells = padded.fill('', cells.length);
    }
    rows[i] = cells;
  }
  if (badDates > 0) for (const cells of rows) if (cells.includes(BAD_DATE)) throw new RangeError('Invalid time value');
  return rows;
}

// ---------------------------------------------------------------------------------------------

/**
 * The first sheet's rows as text. `contents` maps the archive's XML parts to their bytes; the
 * parts read are taken out of it, so that their buffers can be collected once read.
 * @param {Record<string, Uint8Array>} contents
 * @returns {string[][]}
 */
export function scanXlsx(contents) {
  /** A part's bytes (undefined when absent), taken out of `contents`. */
  const take = (path) => {
    const bytes = contents[path];
    if (bytes === undefined) return undefined;
    // A name like "constructor" is no part: read-excel-file failed on what it found there.
    if (!Object.hasOwn(contents, path)) fail(`no part ${path}`);
    delete contents[path];
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  };
  const rels = take('xl/_rels/workbook.xml.rels');
  if (rels === undefined) fail('no xl/_rels/workbook.xml.rels');
  const paths = readRels(rels);
  const workbookXml = take('xl/workbook.xml');
  if (workbookXml === undefined) fail('no xl/workbook.xml');
  const workbook = readWorkbook(workbookXml);

  const stringsPath = paths.sharedStrings || 'xl/sharedStrings.xml';
  const stylesPath = paths.styles || 'xl/styles.xml';
  let stringsXml = take(stringsPath);
  const strings = stringsXml === undefined ? [] : readSharedStrings(stringsXml);
  let stylesXml = stylesPath === stringsPath ? stringsXml : take(stylesPath);
  const styles = stylesXml === undefined ? [] : readStyles(stylesXml);

  if (workbook.sheets === 0) fail('no sheet');
  if (!Object.keys(paths.sheets).includes(workbook.first)) fail(`no worksheet relation ${workbook.first}`);
  const sheetPath = paths.sheets[workbook.first];
  const sheetXml = sheetPath === stringsPath ? stringsXml : sheetPath === stylesPath ? stylesXml : take(sheetPath);
  stringsXml = stylesXml = undefined;
  if (sheetXml === undefined) fail(`no part ${sheetPath}`);
  return readSheet(sheetXml, strings, styles, workbook.epoch1904);
}
