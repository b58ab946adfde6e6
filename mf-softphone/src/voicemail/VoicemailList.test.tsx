import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@tongdai/platform';
import type { VoicemailList as List, VoicemailMessage } from '@tongdai/contracts';
import '../i18n';
import VoicemailList from './VoicemailList';

const asked: string[] = [];
let list: List = { data: [], unheard: 0 };
/** Holds the audio download while set (a slow network). */
let audioGate: Promise<void> | null = null;
jest.mock('@tongdai/platform', () => ({
  ...jest.requireActual('@tongdai/platform'),
  tenantApi: () => ({
    get: (path: string) => {
      asked.push(`GET ${path}`);
      return { json: async () => list, blob: async () => { await audioGate; return new Blob(['RIFF'], { type: 'audio/wav' }); } };
    },
    patch: async (path: string, o: { json: unknown }) => { asked.push(`PATCH ${path} ${JSON.stringify(o.json)}`); },
    delete: async (path: string) => { asked.push(`DELETE ${path}`); },
  }),
}));

const message = (o: Partial<VoicemailMessage>): VoicemailMessage => ({ id: 1, mailbox: '102', caller: '090***0081', duration_seconds: 12.4, created_at: '2026-11-23T03:05:00.000Z', heard: false, ...o });

function renderList() {
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <VoicemailList />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

beforeEach(() => {
  asked.length = 0;
  URL.createObjectURL = jest.fn(() => 'blob:voicemail-1');
  URL.revokeObjectURL = jest.fn();
});

describe('VoicemailList (the softphone\'s "Hộp thư thoại")', () => {
  it('says in Vietnamese that the mailbox is empty', async () => {
    list = { data: [], unheard: 0 };
    renderList();
    expect((await screen.findByTestId('softphone-voicemail-empty')).textContent).toBe('Chưa có tin nhắn thoại nào');
    // How to reach a mailbox from any phone (the feature codes the PBX routes, issue 16).
    expect(screen.getByTestId('softphone-voicemail-codes').textContent).toBe(
      'Từ điện thoại bất kỳ: gọi *97 để nghe hộp thư của bạn, *98 cho hộp thư khác (cần mật khẩu), thành viên một nhóm đổ chuông gọi mã hộp thư nhóm (*96 và số của nhóm, xem cột “Mã hộp thư nhóm” trong danh sách nhóm đổ chuông) để nghe tin nhắn để lại cho cả nhóm. Khi nghe: 5 nghe lại, 7 xoá, # tin tiếp theo.',
    );
  });

  it('lists new and heard messages with time, length and box; playing one fetches its audio and marks it heard', async () => {
    list = { data: [message({}), message({ id: 2, mailbox: 'group-3', caller: '101', duration_seconds: 65, heard: true })], unheard: 1 };
    renderList();
    const rows = await screen.findAllByTestId('softphone-voicemail-row');
    expect(rows.map((r) => r.dataset.heard)).toEqual(['false', 'true']);
    expect(rows[0].textContent).toContain('090***0081');
    expect(rows[0].textContent).toContain('Mới · 23/11/2026 10:05 · 00:12');
    expect(rows[1].textContent).toContain('Đã nghe · 23/11/2026 10:05 · 01:05 · Hộp thư nhóm (*963)');
    fireEvent.click(screen.getAllByTestId('softphone-voicemail-play')[0]);
    expect((await screen.findByTestId('softphone-voicemail-audio')).getAttribute('src')).toBe('blob:voicemail-1');
    expect(asked).toContain('GET voicemail/1/audio');
    expect(asked).toContain('PATCH voicemail/1 {"heard":true}');
    // A heard message is not marked again.
    fireEvent.click(screen.getAllByTestId('softphone-voicemail-play')[1]);
    await waitFor(() => expect(asked).toContain('GET voicemail/2/audio'));
    expect(asked.filter((a) => a.startsWith('PATCH'))).toHaveLength(1);
  });

  it('deletes only after a second click', async () => {
    list = { data: [message({ id: 7 })], unheard: 1 };
    renderList();
    fireEvent.click(await screen.findByTestId('softphone-voicemail-delete'));
    expect(asked.some((a) => a.startsWith('DELETE'))).toBe(false);
    fireEvent.click(screen.getByTestId('softphone-voicemail-confirm-delete'));
    await waitFor(() => expect(asked).toContain('DELETE voicemail/7'));
  });

  it('keeps the focus on a busy button (a disabled one drops it, and the popover closes on focus outside)', async () => {
    list = { data: [message({ id: 9 })], unheard: 1 };
    let open!: () => void;
    audioGate = new Promise((r) => { open = r; });
    renderList();
    const play = await screen.findByTestId('softphone-voicemail-play');
    play.focus();
    fireEvent.click(play);
    await waitFor(() => expect(play.getAttribute('aria-disabled')).toBe('true'));
    expect(play.hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('softphone-voicemail-delete').hasAttribute('disabled')).toBe(false);
    expect(document.activeElement).toBe(play);
    open();
    audioGate = null;
    await screen.findByTestId('softphone-voicemail-audio');
    expect(play.getAttribute('aria-disabled')).not.toBe('true');
  });
});
