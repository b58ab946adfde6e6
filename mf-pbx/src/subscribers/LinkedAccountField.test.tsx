import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@tongdai/platform';
import { LinkedAccountField } from './LinkedAccountField';

// jsdom has no ResizeObserver; Fluent's MessageBar measures itself with one.
globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;

let allowed = false;
jest.mock('@tongdai/platform/react', () => ({ useCan: () => ({ can: () => allowed, featureEnabled: () => true }) }));

const renderField = () =>
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <LinkedAccountField value="" onChange={() => undefined} currentName="Quản trị viên" />
      </QueryClientProvider>
    </I18nextProvider>,
  );

describe('LinkedAccountField', () => {
  it('without account.view: no select (and no request), says why and names the current link', () => {
    allowed = false;
    renderField();
    expect(screen.queryByTestId('field-user_id')).toBeNull();
    expect(screen.getByTestId('accounts-forbidden').textContent).toContain('Bạn không có quyền xem danh sách tài khoản');
    expect(screen.getByTestId('accounts-forbidden').textContent).toContain('Quản trị viên');
  });
});
