// Reads the first sheet of an .xlsx off the API's event loop (issue 12 §1: a 22 kB file that
// unpacks to 20 MB froze every tenant for ~70 s). Plain JavaScript on purpose: a worker thread
// runs outside tsx and Jest's transform. The parent (sheet.ts) sets the time and memory
// limits; this file sets the size ones:
//  - the central directory's uncompressed sizes are summed before anything is inflated;
//  - each entry is inflated with zlib's maxOutputLength = its declared size, so a size that lies
//    stops the inflater instead of growing a buffer;
//  - the worksheet's <row> elements are counted before the XML is parsed.
// Then xlsx-scan.mjs reads the first sheet out of the entries read here, in one pass over its XML
// and with the rows written directly, as read-excel-file (which it replaces here: it built an
// object per cell, and the 100,000-row import took the worker past +140 MB) read it.
import { parentPort, workerData } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';
import { scanXlsx } from './xlsx-scan.mjs';

/** @typedef {{ kind: 'rows', rows: string[][] } | { kind: 'invalid' | 'unpacked' | 'rows-limit' }} Answer */

class Refusal extends Error {
  /** @param {'invalid' | 'unpacked' | 'rows-limit'} kind */
  constructor(kind) {
    super(kind);
    this.kind = kind;
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Only the XML parts are read, like read-excel-file's own filter (images, printer settings are skipped). */
const wanted = (name) => name.endsWith('.xml') || name.endsWith('.rels');

/** The archive's entries from its central directory: name, method, sizes, where the data starts. */
function centralDirectory(buf) {
  const from = Math.max(0, buf.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buf.length - 22; i >= from; i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Refusal('invalid');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) throw new Refusal('invalid');
    const nameLen = buf.readUInt16LE(at + 28);
    const entry = {
      flags: buf.readUInt16LE(at + 8),
      method: buf.readUInt16LE(at + 10),
      compressed: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      local: buf.readUInt32LE(at + 42),
      name: buf.toString('utf8', at + 46, at + 46 + nameLen),
    };
    entries.push(entry);
    at += 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return entries;
}

/** The XML entries inflated, at most `maxUnpacked` bytes in all. */
function unpack(buf, maxUnpacked) {
  const entries = centralDirectory(buf).filter((e) => wanted(e.name));
  // ZIP64 (0xffffffff) and encrypted entries are not spreadsheets anyone uploads here.
  if (entries.some((e) => e.size === 0xffffffff || e.compressed === 0xffffffff || e.flags & 1)) throw new Refusal('invalid');
  if (entries.reduce((sum, e) => sum + e.size, 0) > maxUnpacked) throw new Refusal('unpacked');
  const contents = {};
  for (const e of entries) {
    if (e.local + 30 > buf.length || buf.readUInt32LE(e.local) !== LOCAL) throw new Refusal('invalid');
    const start = e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28);
    const data = buf.subarray(start, start + e.compressed);
    if (data.length !== e.compressed) throw new Refusal('invalid');
    let out;
    if (e.method === 0) out = data;
    else if (e.method === 8) {
      try {
        // One output chunk of the declared size: zlib's 16 KB chunks joined at the end held the
        // part twice (the 100,000-row contact file: ~18 MB of the worker's peak).
        out = inflateRawSync(data, { maxOutputLength: Math.max(e.size, 1), chunkSize: Math.max(e.size + 1, 64) });
      } catch (err) {
        throw new Refusal(err && err.code === 'ERR_BUFFER_TOO_LARGE' ? 'unpacked' : 'invalid');
      }
    } else throw new Refusal('invalid');
    if (out.length !== e.size) throw new Refusal(out.length > e.size ? 'unpacked' : 'invalid');
    contents[e.name] = new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  return contents;
}

const WORD = new Uint8Array(256);
for (const c of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz') WORD[c.charCodeAt(0)] = 1;
/** What may follow `<row` in the tag: white space (as /\s/ reads a byte as Latin-1), '>' or '/'. */
const AFTER = new Uint8Array(256);
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x3e, 0x2f]) AFTER[c] = 1;

/**
 * `<row` and `<prefix:row` start tags in the bytes (as /<(?:\w+:)?row[\s>/]/g counted them in a
 * Latin-1 copy of the part, which held 10 MB more for the 100,000-row contact file).
 */
function rowTags(bytes) {
  let n = 0;
  for (let i = bytes.indexOf('row'); i >= 0; i = bytes.indexOf('row', i + 3)) {
    if (!AFTER[bytes[i + 3]]) continue;
    if (bytes[i - 1] === 0x3c) {
      n++;
      continue;
    }
    if (bytes[i - 1] !== 0x3a) continue;
    let j = i - 2;
    while (j >= 0 && WORD[bytes[j]]) j--;
    if (j < i - 2 && bytes[j] === 0x3c) n++;
  }
  return n;
}

/** Row elements of every worksheet (with or without a namespace prefix), counted without parsing. */
function countRows(contents, maxRows) {
  for (const [name, bytes] of Object.entries(contents)) {
    if (!/^xl\/worksheets\/[^/]+\.xml$/.test(name)) continue;
    if (rowTags(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)) > maxRows) throw new Refusal('rows-limit');
  }
}

/** @returns {Answer} */
function read({ bytes, maxUnpacked, maxRows }) {
  try {
    const contents = unpack(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), maxUnpacked);
    countRows(contents, maxRows);
    // Text cells already (numbers as their digits, dates as ISO strings); anything the scanner
    // cannot read (no sheet, a broken part, a cell error) is not a spreadsheet we take.
    return { kind: 'rows', rows: scanXlsx(contents) };
  } catch (e) {
    return { kind: e instanceof Refusal ? e.kind : 'invalid' };
  }
}

parentPort.postMessage(read(workerData));
