import fc from 'fast-check';
import { callReportCells, displayForm, maskPhone, type CallReportRow } from '@tongdai/contracts';
import { EXPORT_LINE_FIELDS, exportLinePage, lookupOrder, readRecord, type ExportLinePage } from './call-history.repository';
import { linePages, NATIONAL, type LineContext } from './export-lines';

/**
 * The export's lines without a database (export.integration.test holds them equal to the screen's
 * rows on generated records, and reads PostgreSQL's own record text): the Vietnam time made by
 * arithmetic is the time the screen's Date formatting gives, around midnights, month and year ends
 * and for any instant, whatever order the lines come in; the wait is the screen's; a number in
 * national form skips displayForm and is shown as hide shows it; the record reader.
 */

/** A record as PostgreSQL's record_out writes it: NULL empty; quoted when empty or holding `"\(),` or a space, `"` and `\` doubled. */
const pgRecord = (values: readonly (string | number | null)[]): string =>
  `(${values
    .map((v) => {
      if (v === null) return '';
      const s = String(v);
      return s === '' || /["\\(),\s]/.test(s) ? `"${s.replace(/["\\]/g, (c) => c + c)}"` : s;
    })
    .join(',')})`;

type Line = { at_us: number; answered_ms?: number | null; direction?: string; caller?: string; callee?: string; did?: string | null; route?: unknown; extension?: string | null; duration?: number; billsec?: number; disposition?: string; sip_code?: number | null; reason?: string | null };
const defaults = { answered_ms: null, direction: 'inbound', caller: '0912345678', callee: '19006486', did: null, route: null, extension: null, duration: 30, billsec: 0, disposition: 'NO ANSWER', sip_code: 487, reason: null };
const pageOf = (lines: Line[]): ExportLinePage => ({
  lines: lines.map((l, i) => {
    const r: Record<string, unknown> = { id: i + 1, ...defaults, ...l };
    return pgRecord(EXPORT_LINE_FIELDS.map((f) => (f === 'route' ? (r.route === null ? null : JSON.stringify(r.route)) : (r[f] as string | number | null))));
  }),
  numbers: [],
  next: null,
});
const hide = (n: string) => maskPhone(displayForm(n), 3);
const ctx: LineContext = { nameOf: new Map([['1001', 'Nguyễn Văn An']]), hide, mask: (n) => maskPhone(n, 3) };
const cellsOf = (lines: Line[], context = ctx, customers = new Map<string, string>()) => linePages(context)(pageOf(lines), customers).cells();

/** The screen's time of a record (present() reads started_at to the millisecond; callReportCells formats it). */
const screenTime = (atUs: number) => callReportCells({ started_at: new Date(Math.floor(atUs / 1000)).toISOString(), path: [], direction: 'inbound' } as unknown as CallReportRow)[0];
const us = (iso: string, micros = 0) => Date.parse(iso) * 1000 + micros;

describe('export lines: Vietnam time by arithmetic', () => {
  it('is the screen’s time around Vietnam midnights, month, year and leap-day ends', () => {
    const instants = [
      us('2026-10-31T16:59:59.999Z', 999), us('2026-10-31T17:00:00.000Z'), us('2026-10-31T17:00:00.000Z', 1), us('2026-10-30T17:00:59.999Z', 500),
      us('2026-12-31T16:59:59.999Z', 999), us('2026-12-31T17:00:00.000Z'), us('2028-02-28T16:59:59Z'), us('2028-02-28T17:00:00Z'),
      us('2028-02-29T16:59:59Z', 999_999 % 1000), us('2028-02-29T17:00:00Z'), us('2027-02-28T17:00:00Z'), us('1999-12-31T16:59:59Z'), us('1999-12-31T17:00:00Z'),
      us('2026-11-01T00:00:00Z'), us('2026-11-01T06:59:59.999Z', 999), us('2026-11-01T07:00:00Z'),
    ];
    const cells = cellsOf(instants.map((at_us) => ({ at_us })));
    expect(cells.map((c) => c[0])).toEqual(instants.map(screenTime));
    expect(cells.slice(0, 2).map((c) => c[0])).toEqual(['2026-10-31 23:59:59', '2026-11-01 00:00:00']);
    expect(cells[9][0]).toBe('2028-03-01 00:00:00');
    expect(cells[7][0]).toBe('2028-02-29 00:00:00');
  });

  it('is the screen’s time for any instant, in any order of lines (newest first or not)', () => {
    const instant = fc.integer({ min: us('1990-01-01T00:00:00Z'), max: us('2100-01-01T00:00:00Z') });
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 60 }), fc.boolean(), (ats, sorted) => {
        const lines = (sorted ? [...ats].sort((a, b) => b - a) : ats).map((at_us) => ({ at_us }));
        expect(cellsOf(lines).map((c) => c[0])).toEqual(lines.map((l) => screenTime(l.at_us)));
      }),
      { numRuns: 300 },
    );
    // Lines a few seconds apart across a minute, an hour and a day (the minute and day kept between lines).
    const start = us('2026-10-31T16:58:57Z', 123);
    const dense = Array.from({ length: 200 }, (_, i) => ({ at_us: start + i * 1_234_567 }));
    expect(cellsOf(dense).map((c) => c[0])).toEqual(dense.map((l) => screenTime(l.at_us)));
  });

  it('waits as the screen counts: answered minus started to the millisecond, rounded; the ringing time of an unanswered call', () => {
    fc.assert(
      fc.property(fc.integer({ min: us('2026-01-01T00:00:00Z'), max: us('2027-01-01T00:00:00Z') }), fc.integer({ min: -2000, max: 4_000_000 }), fc.nat(5000), (at, after, duration) => {
        const answered = Math.floor(at / 1000) + after;
        const [line] = cellsOf([{ at_us: at, answered_ms: answered, duration, disposition: 'ANSWERED' }]);
        const screen = Math.max(0, Math.round((answered - Date.parse(new Date(Math.floor(at / 1000)).toISOString())) / 1000));
        expect(line[8]).toBe(callReportCells({ started_at: new Date(0).toISOString(), path: [], wait: screen, billsec: 0, direction: 'inbound' } as unknown as CallReportRow)[8]);
        expect(cellsOf([{ at_us: at, duration }])[0][8]).toBe(callReportCells({ started_at: new Date(0).toISOString(), path: [], wait: duration, billsec: 0, direction: 'inbound' } as unknown as CallReportRow)[8]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('export lines: numbers, labels and cells', () => {
  it("names the answerer only for an answered call: a missed call's extension (the one it rang) stays out, as on the screen", () => {
    const [missed, answered] = cellsOf([
      { at_us: us('2026-10-31T03:00:00Z'), extension: '1001', disposition: 'NO ANSWER' },
      { at_us: us('2026-10-31T02:00:00Z'), extension: '1001', disposition: 'ANSWERED', answered_ms: Date.parse('2026-10-31T02:00:05Z') },
    ]);
    expect([missed[6], missed[7]]).toEqual(['', '']);
    expect([answered[6], answered[7]]).toEqual(['1001', 'Nguyễn Văn An']);
  });

  it('leaves a number in national form as displayForm would, and never takes one displayForm changes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^0[2-9]\d{0,12}$/), (n) => {
        expect(NATIONAL.test(n)).toBe(true);
        expect(displayForm(n)).toBe(n);
      }),
      { numRuns: 2000 },
    );
    for (const n of ['0084912345678', '01900123456', '01800123456', '84912345678', '+84912345678', '912345678', '1900123456', '0', '00', '0a12', '1001']) {
      expect(NATIONAL.test(n) && displayForm(n) !== n).toBe(false);
    }
    expect(NATIONAL.test('0084912345678') || NATIONAL.test('01900123456')).toBe(false);
  });

  it('shows an outside number of any form as hide does (masked), an extension as it is, with the customer and the person', () => {
    const numbers = ['0912345678', '84912345678', '+84 912 345 678', '0084912345678', '02812345678', '01900123456', '1900123456', '0123', '12345', 'anonymous', '0912-345-678'];
    for (const n of numbers) {
      const [inbound, outbound] = cellsOf(
        [
          { at_us: us('2026-10-31T03:00:00Z'), direction: 'inbound', caller: n, callee: '19006486', extension: '1001', disposition: 'ANSWERED', answered_ms: Date.parse('2026-10-31T03:00:07Z') },
          { at_us: us('2026-10-31T02:00:00Z'), direction: 'outbound', caller: '1001', callee: n },
        ],
        ctx,
        new Map([[n, 'Khách, "A"']]),
      );
      expect([inbound[2], inbound[3], inbound[6], inbound[7], inbound[8], inbound[12]]).toEqual([hide(n), '19006486', '1001', 'Nguyễn Văn An', '00:07', 'Khách, "A"']);
      expect([outbound[2], outbound[3], outbound[6], outbound[7]]).toEqual(['1001', hide(n), '', '']);
    }
    // Without a masker given, hide shows every number; an internal call shows both extensions.
    const plain = cellsOf([{ at_us: us('2026-10-31T03:00:00Z'), caller: '84912345678' }], { nameOf: new Map(), hide: displayForm });
    expect(plain[0][2]).toBe('0912345678');
    expect(cellsOf([{ at_us: us('2026-10-31T03:00:00Z'), direction: 'internal', caller: '1001', callee: '1002' }])[0].slice(1, 4)).toEqual(['Nội bộ', '1001', '1002']);
  });

  it('gives the path, result and reason as the screen names them, and its CSV is the cells’ CSV', () => {
    const route = [{ type: 'ivr', name: 'IVR chào (mừng), "1"' }, { type: 'extension', name: '1001' }, { type: 'queue', name: 'Hàng đợi CSKH' }];
    const lines: Line[] = [
      { at_us: us('2026-10-31T03:00:00Z'), route, did: '842812345678', extension: '1001', disposition: 'ANSWERED', answered_ms: Date.parse('2026-10-31T03:00:15Z'), billsec: 95 },
      { at_us: us('2026-10-31T02:00:00Z'), disposition: 'NO ANSWER', sip_code: 486 },
      { at_us: us('2026-10-31T01:00:00Z'), disposition: 'FAILED', sip_code: null },
      { at_us: us('2026-10-31T00:00:00Z'), disposition: 'BLOCKED', sip_code: 403, reason: 'Số gọi đến nằm trong danh sách chặn' },
      { at_us: us('2026-10-30T23:00:00Z'), disposition: 'FAILED', sip_code: 503, reason: 'a\\b "c"\n(d)' },
    ];
    const cells = cellsOf(lines);
    expect(cells[0].slice(4, 11)).toEqual(['02812345678', 'IVR: IVR chào (mừng), "1" → Hàng đợi: Hàng đợi CSKH', '1001', 'Nguyễn Văn An', '00:15', '01:35', 'Trả lời']);
    expect(cells.map((c) => [c[10], c[11]])).toEqual([
      ['Trả lời', ''],
      ['Không trả lời', 'Bên nhận đang bận hoặc đã từ chối cuộc gọi'],
      ['Lỗi', 'Cuộc gọi kết thúc không rõ lý do (tổng đài không báo kết thúc)'],
      ['Bị chặn', 'Số gọi đến nằm trong danh sách chặn'],
      ['Lỗi', 'a\\b "c"\n(d)'],
    ]);
    const csv = linePages(ctx)(pageOf(lines), new Map()).csv().toString('utf8');
    const quoted = (c: string) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c);
    expect(csv).toBe(cells.map((row) => `${row.map((c) => (/[",\r\n]/.test(quoted(c)) ? `"${quoted(c).replace(/"/g, '""')}"` : quoted(c))).join(',')}\r\n`).join(''));
  });
});

describe('exportLinePage', () => {
  it('gives the lines in keyset order (put back in it should the database give them otherwise), their outside numbers sorted, the next page’s key', async () => {
    const lines = pageOf([
      { at_us: 3000, caller: '0987654321' },
      { at_us: 1000, direction: 'outbound', caller: '1001', callee: '0912345678' },
      { at_us: 3000, caller: '0912345678' },
      { at_us: 2000, direction: 'internal', caller: '1001', callee: '1002' },
    ]).lines; // ids 1…4
    const statements: string[] = [];
    const tx = { query: async (sql: string) => (statements.push(sql), { rows: [lines[2], lines[0], lines[3], lines[1]].map((r) => ({ r })) as never[] }) };
    const range = { from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-01T00:00:00Z') };
    const page = await exportLinePage(tx, { ...range, limit: 4 }, null);
    expect(page.lines).toEqual([lines[2], lines[0], lines[3], lines[1]]); // (3000, 3), (3000, 1), (2000, 4), (1000, 2)
    expect(page.numbers).toEqual(['0912345678', '0987654321']);
    expect(page.next).toEqual({ atUs: 1000, id: 2 });
    expect(statements[0]).toMatch(/^select row\(l\.id, l\.at_us::int8, .*\)::text as r from \(select .* from cdrs where /s);
    const shuffled = { query: async () => ({ rows: [lines[1], lines[2], lines[0]].map((r) => ({ r })) as never[] }) };
    const last = await exportLinePage(shuffled, { ...range, limit: 4 }, null);
    expect([last.lines, last.next]).toEqual([[lines[2], lines[0], lines[1]], null]);
  });
});

describe('lookupOrder', () => {
  it('keeps every number once, digits by length then value (leading zeros kept), others after', () => {
    expect(lookupOrder(['0912345678', '02812345678', '0312345678', '1001', 'anonymous', '+84912345678', '0000000001', '1900123456', '123456789012345678'])).toEqual([
      '1001', '0000000001', '0312345678', '0912345678', '1900123456', '02812345678', '+84912345678', '123456789012345678', 'anonymous',
    ]);
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.stringMatching(/^\d{1,15}$/), fc.string())), (numbers) => {
        const ordered = lookupOrder(numbers);
        expect([...ordered].sort()).toEqual([...numbers].sort());
        const digits = ordered.filter((n) => /^\d{1,15}$/.test(n));
        expect(digits).toEqual([...digits].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)));
      }),
    );
  });
});

describe('readRecord (PostgreSQL record text)', () => {
  const read = (line: string, width: number, upTo = width) => {
    const f = new Array<string | null>(width).fill('unread');
    readRecord(line, f, upTo);
    return f;
  };

  it('reads NULL, empty, quoted, doubled quotes and backslashes, newlines and parentheses inside values', () => {
    const values = [null, '', 'a', 'a,b', 'x"y', 'back\\slash', '(p)', ' lead', 'line\nbreak\r\n', '))', '"', '\\', 'Nguyễn Văn Ánh'];
    expect(read(pgRecord(values), values.length)).toEqual(values);
    expect(read(pgRecord(values.slice().reverse()), values.length)).toEqual(values.slice().reverse());
    expect(read('(1,,"")', 3)).toEqual(['1', null, '']);
    // The first fields only (what a page reads as it arrives).
    expect(read('(1,"a,b",x,"y")', 4, 2)).toEqual(['1', 'a,b', 'unread', 'unread']);
  });

  it('reads numbers without strings: integers, negative, NULL as NaN, anything else by Number()', () => {
    const f = new Array<string | null>(6).fill(null);
    const num = new Float64Array(6);
    readRecord('(1792033199664123,-5,,1.5e+3,"7",x)', f, 6, [true, true, true, true, true, false], num);
    expect([...num.slice(0, 5), f[5]]).toEqual([1792033199664123, -5, NaN, 1500, 7, 'x']);
  });

  it('refuses text that is not a record of that width', () => {
    expect(() => read('1,2)', 2)).toThrow(/is no record/);
    expect(() => read('(1,2', 2)).toThrow(/ends early/);
    expect(() => read('(1,"2)', 2)).toThrow(/does not end/);
    expect(() => read('(1,"2"x)', 2)).toThrow(/not followed/);
    expect(() => read('(1,2)(3,4)', 2)).toThrow(/more than 2 fields/);
    expect(() => read('(1,2,3)', 2)).toThrow(/more than 2 fields/);
  });
});
