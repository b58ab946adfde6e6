import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@tongdai/platform';
import { ExtensionsPicker } from './ExtensionsPicker';

const mockGet = jest.fn();
jest.mock('@tongdai/platform', () => ({ ...jest.requireActual('@tongdai/platform'), pbxApi: () => ({ get: mockGet }) }));

const DIRECT = { '101': '101 - Quản trị viên', '102': '102 - Nhân viên tổng đài', '103': '103 - Lễ tân' };
// jsdom has no fetch Response: the fields fetchDestinations reads.
const answer = (status: number, body: unknown) => Promise.resolve({ status, json: () => Promise.resolve(body) });

let last: string[] = [];
function Harness({ initial }: { initial: string[] }) {
  const [value, setValue] = useState(initial);
  return <ExtensionsPicker name="extensions" label="Máy nhánh" value={value} onChange={(v) => { last = v; setValue(v); }} />;
}
const renderPicker = (initial: string[]) =>
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}><Harness initial={initial} /></QueryClientProvider>
    </I18nextProvider>,
  );
const order = () => screen.getAllByTestId('field-extensions-item').map((li) => li.getAttribute('data-extension'));

describe('ExtensionsPicker', () => {
  beforeEach(() => mockGet.mockImplementation(() => answer(200, { data: { direct: DIRECT } })));

  it('appends picked extensions in the order chosen and offers only the others', async () => {
    renderPicker([]);
    expect(screen.getByTestId('field-extensions').textContent).toBe('Chưa chọn máy nhánh nào');
    const add = screen.getByTestId('field-extensions-add') as HTMLSelectElement;
    await screen.findByRole('option', { name: '103 - Lễ tân' });
    fireEvent.change(add, { target: { value: '103' } });
    fireEvent.change(add, { target: { value: '101' } });
    expect(order()).toEqual(['103', '101']);
    expect(within(add).queryByRole('option', { name: '103 - Lễ tân' })).toBeNull();
    expect(within(add).getByRole('option', { name: '102 - Nhân viên tổng đài' })).toBeTruthy();
  });

  it('moves an extension up and down and removes it; the ends cannot move further', async () => {
    renderPicker(['101', '102', '103']);
    await screen.findByText('102 - Nhân viên tổng đài');
    const items = screen.getAllByTestId('field-extensions-item');
    expect((within(items[0]).getByTestId('move-up') as HTMLButtonElement).disabled).toBe(true);
    expect((within(items[2]).getByTestId('move-down') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(items[2]).getByRole('button', { name: 'Đưa máy nhánh 103 lên' }));
    expect(order()).toEqual(['101', '103', '102']);
    fireEvent.click(within(screen.getAllByTestId('field-extensions-item')[0]).getByTestId('move-down'));
    expect(order()).toEqual(['103', '101', '102']);
    expect(last).toEqual(['103', '101', '102']);
    fireEvent.click(screen.getByRole('button', { name: 'Bỏ máy nhánh 101' }));
    expect(order()).toEqual(['103', '102']);
  });

  it('names an extension that no longer exists', async () => {
    renderPicker(['109']);
    expect(await screen.findByText('109 (không còn tồn tại)')).toBeTruthy();
  });
});
