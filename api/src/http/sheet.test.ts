import writeXlsxFile from 'write-excel-file/node';
import { IMPORT_MAX_ROWS, PBX_MSG } from '@tongdai/contracts';
import { sheetRow, xlsx, xlsxBomb } from '@tongdai/testkit/xlsx-bomb';
import { AppError } from './errors';
import { parseCsv, readRows, sheetWorkersRunning, SHEET_LIMITS, SHEET_MSG } from './sheet';

/** The message of the 400 readRows throws, or 'read' when it answered. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'read';
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    expect(e.statusCode).toBe(400);
    return e.details![0].message;
  }
}

describe('inbound import sheets', () => {
  it('parses CSV with a BOM, semicolons, quotes and CRLF', () => {
    const text = '\uFEFFdid;description\r\n02873000001;"Tổng đài; chính"\r\n"0287""3";x\r\n';
    expect(parseCsv(text)).toEqual([
      ['did', 'description'],
      ['02873000001', 'Tổng đài; chính'],
      ['0287"3', 'x'],
    ]);
    expect(parseCsv('a,b\n1,"dòng\nhai"')).toEqual([
      ['a', 'b'],
      ['1', 'dòng\nhai'],
    ]);
  });

  it('reads the first sheet of an .xlsx as text cells, digits as typed', async () => {
    const bytes = (await writeXlsxFile(
      [
        [{ value: 'did' }, { value: 'ring' }],
        [{ value: '02873000001' }, { value: 42 }],
      ],
      {},
    ).toBuffer()) as Buffer;
    expect(await readRows(bytes)).toEqual([
      ['did', 'ring'],
      ['02873000001', '42'],
    ]);
  });

  it('refuses binary files that are neither', async () => {
    expect(await readRows(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 1, 2]))).toBeNull();
    expect(await readRows(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toBeNull();
  });

  describe('limits (issue 12 §1: a 22 kB file froze the API for 70 s)', () => {
    const unpacked = SHEET_MSG.unpackedTooLarge(SHEET_LIMITS.maxUnpacked / (1024 * 1024));

    it('reads a hand-built .xlsx through the worker', async () => {
      expect(await readRows(xlsx(sheetRow(1, ['did', 'mô tả']) + sheetRow(2, ['0287', 'x & y'])))).toEqual([
        ['did', 'mô tả'],
        ['0287', 'x & y'],
      ]);
    });

    it('refuses a bomb by its central directory before inflating it', async () => {
      const bomb = xlsxBomb(40);
      expect(bomb.length).toBeLessThan(100 * 1024);
      const started = Date.now();
      expect(await refusal(readRows(bomb))).toBe(unpacked);
      // The freeze it guards against took 70 s; a worker thread's start alone took over 3 s at load 13 (ci3 of the
      // thirty-second session: 3466 ms). Under the worker's own 10 s limit, whose refusal would read otherwise.
      expect(Date.now() - started).toBeLessThan(8000);
    });

    it('stops inflating where the headers lie about the size', async () => {
      expect(await refusal(readRows(xlsxBomb(40, true)))).toBe(unpacked);
    });

    it('counts rows before parsing, in sheets and in CSV', async () => {
      const rows = Array.from({ length: SHEET_LIMITS.maxRows + 1 }, (_, i) => `<row r="${i + 1}"/>`).join('');
      expect(await refusal(readRows(xlsx(rows)))).toBe(PBX_MSG.importTooMany(IMPORT_MAX_ROWS));
      expect(await refusal(readRows(Buffer.from('a\n'.repeat(SHEET_LIMITS.maxRows + 1))))).toBe(PBX_MSG.importTooMany(IMPORT_MAX_ROWS));
    });

    it('lets other requests run while it reads a CSV of megabytes (it pauses every 64k characters)', async () => {
      let ticks = 0;
      let done = false;
      const tick = () => {
        ticks++;
        if (!done) setImmediate(tick);
      };
      setImmediate(tick);
      const rows = await readRows(Buffer.from(`did,mo_ta\n0287,"${'ư'.repeat(2_000_000)}"\n${','.repeat(2_000_000)}`));
      done = true;
      expect([rows?.length, rows?.[1][1].length, rows?.[2].length]).toEqual([3, 2_000_000, 2_000_001]);
      expect(ticks).toBeGreaterThan(20);
    });

    it('reads at most two sheets at a time; the others wait their turn and are read too', async () => {
      const sheet = xlsx(sheetRow(1, ['did']) + sheetRow(2, ['0287']));
      let most = 0;
      let done = false;
      const watch = () => {
        most = Math.max(most, sheetWorkersRunning());
        if (!done) setImmediate(watch);
      };
      watch();
      const answers = await Promise.all(Array.from({ length: 6 }, () => readRows(sheet)));
      done = true;
      expect(answers).toEqual(Array.from({ length: 6 }, () => [['did'], ['0287']]));
      expect(most).toBe(2);
    });

    it('ends a read that outlives its time limit', async () => {
      const big = xlsx(Array.from({ length: 2000 }, (_, i) => sheetRow(i + 1, ['0287', 'direct', '101'])).join(''));
      expect(await refusal(readRows(big, { ...SHEET_LIMITS, timeoutMs: 1 }))).toBe(SHEET_MSG.tooSlow);
    });
  });
});
