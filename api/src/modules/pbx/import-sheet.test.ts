import writeXlsxFile from 'write-excel-file/node';
import { parseCsv, readRows } from './import-sheet';

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
});
