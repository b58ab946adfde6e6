import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { IMPORT_INBOUND_COLUMNS, PBX_MSG } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import { checkImportFile, inboundTemplateCsv } from './importFile';
import { ImportReport } from './ImportReport';

// jsdom has no ResizeObserver; Fluent's MessageBar measures itself with one.
globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;

const show = (imported: number, refused: { row: number; did: string; message: string }[]) =>
  render(<I18nextProvider i18n={i18n}><ImportReport result={{ imported, refused }} /></I18nextProvider>);

describe('ImportReport', () => {
  it('says how many routes were imported and lists each refused row with its reason', () => {
    show(47, [
      { row: 5, did: '02873000099', message: PBX_MSG.didUnknown },
      { row: 12, did: '', message: 'Thông tin không được để trống' },
      { row: 30, did: '02873000001', message: PBX_MSG.destinationMissing },
    ]);
    expect(screen.getByTestId('import-imported').textContent).toBe('Đã nhập 47 tuyến');
    expect(screen.getByText('Các dòng bị từ chối (3)')).toBeTruthy();
    const rows = screen.getAllByTestId('import-refused-row').map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['5', '02873000099', 'Số DID không thuộc doanh nghiệp'],
      ['12', '—', 'Thông tin không được để trống'],
      ['30', '02873000001', 'Điểm đến không tồn tại'],
    ]);
  });

  it('with nothing refused, says so and shows no table', () => {
    show(2, []);
    expect(screen.getByTestId('import-imported').textContent).toBe('Đã nhập 2 tuyến');
    expect(screen.getByText('Không có dòng nào bị từ chối.')).toBeTruthy();
    expect(screen.queryByTestId('import-refused')).toBeNull();
  });
});

describe('import file', () => {
  it('template: the contract columns as the header row, UTF-8 BOM for Excel', () => {
    expect(inboundTemplateCsv()).toBe(`\uFEFF${IMPORT_INBOUND_COLUMNS.join(',')}\r\n`);
    expect(inboundTemplateCsv()).toContain('did,caller_pattern,destination_type,destination_target,description');
  });

  it('accepts .csv and .xlsx only, and asks for a file', () => {
    expect(checkImportFile(null)).toBe(PBX_MSG.fileRequired);
    expect(checkImportFile(new File(['x'], 'tuyen.CSV'))).toBeNull();
    expect(checkImportFile(new File(['x'], 'tuyen.xlsx'))).toBeNull();
    expect(checkImportFile(new File(['x'], 'tuyen.xls'))).toBe(PBX_MSG.fileType);
  });
});
