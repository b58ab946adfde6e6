import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { i18n } from '@tongdai/platform';
import '../i18n';
import { CallerCard } from './CallerCard';
import { CustomerCard } from './CustomerCard';

const asked: string[] = [];
let answer: unknown = null;
let allowed = true;
jest.mock('@tongdai/platform', () => ({
  ...jest.requireActual('@tongdai/platform'),
  tenantApi: () => ({ get: (path: string) => { asked.push(path); return { json: async () => ({ data: answer }) }; } }),
}));
jest.mock('@tongdai/platform/react', () => ({ useCan: () => ({ can: () => allowed, featureEnabled: () => true }) }));

const customer = {
  id: 7, name: 'Nguyễn Thị Hoa', code: 'KH0001', phone: '090****567', email: 'hoa@example.vn', status: 'potential', note: 'Gọi lại vào buổi chiều',
  address: '', zalo: '', facebook: '', user_id: null, note_in_calling: null, is_datasource: null, is_project: null, is_status: null, created_at: '', updated_at: '',
};

function renderCard(number: string, onClose = jest.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter><CustomerCard number={number} onClose={onClose} /></MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return onClose;
}

beforeEach(() => { asked.length = 0; allowed = true; });

describe('CustomerCard (SPEC §4 customer popup)', () => {
  it("a known number: the customer's name, code, phone as the API masks it, email, status and note, with a link to open them", async () => {
    answer = customer;
    renderCard('0901234567');
    expect(await screen.findByTestId('softphone-customer-name')).toHaveProperty('textContent', 'Nguyễn Thị Hoa');
    expect(asked).toEqual(['customers/by-phone/0901234567']);
    const text = (id: string) => screen.getByTestId(id).textContent;
    expect([text('softphone-customer-code'), text('softphone-customer-phone'), text('softphone-customer-email'), text('softphone-customer-status'), text('softphone-customer-note')]).toEqual([
      'Mã khách hàngKH0001', 'Điện thoại090****567', 'Emailhoa@example.vn', 'Giai đoạn chăm sócTiềm năng', 'Ghi chúGọi lại vào buổi chiều',
    ]);
    expect(screen.getByTestId('softphone-customer-open').getAttribute('href')).toBe('/customer/edit/7');
  });

  it('an unknown number: "Khách hàng mới" and a link to create the customer with the number filled in', async () => {
    answer = null;
    const onClose = renderCard('+84912345678');
    expect((await screen.findByTestId('softphone-customer-new')).textContent).toBe('Khách hàng mới');
    expect(screen.getByTestId('softphone-customer-add').getAttribute('href')).toBe('/customer/add?phone=%2B84912345678');
    fireEvent.click(screen.getByTestId('softphone-customer-close'));
    expect(onClose).toHaveBeenCalled();
  });

  it('a user who may not see customers: the number only, and no lookup', () => {
    allowed = false;
    renderCard('0901234567');
    expect(screen.getByTestId('softphone-customer-number').textContent).toBe('0901234567');
    expect(screen.queryByTestId('softphone-customer-new')).toBeNull();
    expect(asked).toEqual([]);
  });

  it('an internal extension calling: the colleague (extension and name), never "Khách hàng mới", and no customer lookup', () => {
    answer = null;
    render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient()}>
          <MemoryRouter><CallerCard number="101" colleague={{ extension: '101', display_name: 'Quản trị viên' }} onClose={jest.fn()} /></MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    expect(screen.getByTestId('softphone-colleague').textContent).toContain('Máy nhánh nội bộ');
    expect(screen.getByTestId('softphone-colleague-extension').textContent).toBe('Máy nhánh 101');
    expect(screen.getByTestId('softphone-colleague-name').textContent).toBe('Quản trị viên');
    expect(screen.queryByText('Khách hàng mới')).toBeNull();
    expect(asked).toEqual([]);
  });
});
