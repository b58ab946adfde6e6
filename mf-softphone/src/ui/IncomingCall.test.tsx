import { render, screen } from '@testing-library/react';
import { FluentProvider, webDarkTheme, webLightTheme } from '@fluentui/react-components';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@tongdai/platform';
import '../i18n';
import { IncomingCall } from './IncomingCall';

const ring = (via?: Parameters<typeof IncomingCall>[0]['via'], theme = webLightTheme) =>
  render(
    <I18nextProvider i18n={i18n}>
      <FluentProvider theme={theme}>
        <IncomingCall number="0903000001" via={via} onAnswer={() => {}} onReject={() => {}} />
      </FluentProvider>
    </I18nextProvider>,
  );

describe('IncomingCall', () => {
  it('says which hotline and group the call came through (issue 30)', () => {
    ring({ hotline: '02873001234', group: 'Kinh doanh' });
    expect(screen.getByTestId('softphone-call-via').textContent).toBe('Qua hotline 02873001234 · Nhóm Kinh doanh');
    expect(screen.getByRole('alertdialog', { name: 'Cuộc gọi đến' })).toBeTruthy();
  });
  it('a queue call, in dark mode too', () => {
    ring({ hotline: '02873001234', queue: 'CSKH' }, webDarkTheme);
    expect(screen.getByTestId('softphone-call-via').textContent).toBe('Qua hotline 02873001234 · Hàng đợi CSKH');
  });
  it("a colleague's direct call names no hotline", () => {
    ring(undefined);
    expect(screen.queryByTestId('softphone-call-via')).toBeNull();
    expect(screen.getByTestId('softphone-caller').textContent).toBe('0903000001');
  });
  it('a call that gives a name (a click-to-call\'s "Gọi cho …", ADR 0066) shows it under the number', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <FluentProvider theme={webLightTheme}>
          <IncomingCall number="0912000801" name="Gọi cho 0912000801" onAnswer={() => {}} onReject={() => {}} />
        </FluentProvider>
      </I18nextProvider>,
    );
    expect(screen.getByTestId('softphone-caller-name').textContent).toBe('Gọi cho 0912000801');
    expect(screen.getByTestId('softphone-caller').textContent).toBe('0912000801');
  });
});
