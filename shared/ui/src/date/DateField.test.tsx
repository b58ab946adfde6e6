import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@tongdai/platform';
import '../i18n';
import { DateField } from './DateField';

function Harness({ start, seen }: { start: string; seen: string[] }) {
  const [value, setValue] = useState(start);
  return (
    <I18nextProvider i18n={i18n}>
      <DateField value={value} onChange={(v) => { seen.push(v); setValue(v); }} aria-label="Ngày" data-testid="day" />
    </I18nextProvider>
  );
}

describe('DateField', () => {
  it('shows the ISO day as dd/MM/yyyy and sends typed dd/MM/yyyy back as ISO', () => {
    const seen: string[] = [];
    render(<Harness start="2026-11-25" seen={seen} />);
    const input = screen.getByTestId('day') as HTMLInputElement;
    expect(input.value).toBe('25/11/2026');
    fireEvent.change(input, { target: { value: '26/11/202' } });
    expect(seen).toEqual([]);
    fireEvent.change(input, { target: { value: '26/11/2026' } });
    fireEvent.change(input, { target: { value: '1/2/2027' } });
    expect(seen).toEqual(['2026-11-26', '2027-02-01']);
    fireEvent.blur(input);
    expect(input.value).toBe('01/02/2027');
  });

  it('picks on a Vietnamese month calendar starting on Monday', () => {
    const seen: string[] = [];
    render(<Harness start="2026-11-25" seen={seen} />);
    fireEvent.click(screen.getByRole('button', { name: 'Chọn ngày' }));
    expect(screen.getByText('Tháng 11 năm 2026')).toBeTruthy();
    const heads = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(heads).toEqual(['T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'CN']);
    expect(screen.getByRole('button', { name: '25 tháng 11 năm 2026, Thứ Tư' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Sang tháng sau' }));
    expect(screen.getByText('Tháng 12 năm 2026')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '31 tháng 12 năm 2026, Thứ Năm' }));
    expect(seen).toEqual(['2026-12-31']);
    expect((screen.getByTestId('day') as HTMLInputElement).value).toBe('31/12/2026');
    expect(screen.getByRole('button', { name: 'Chọn ngày' })).toBeTruthy();
  });
});
