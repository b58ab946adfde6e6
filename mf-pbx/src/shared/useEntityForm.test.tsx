import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { PBX_MSG } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import { ringGroupEntity } from '../ringgroup/ringgroup.entity';
import { useEntityForm } from '@tongdai/ui';

const mockPost = jest.fn();
jest.mock('@tongdai/platform', () => ({ ...jest.requireActual('@tongdai/platform'), pbxApi: () => ({ post: mockPost }) }));

/** What ky throws on a non-2xx answer, as far as toApiError reads it. */
const httpError = (status: number, body: unknown) =>
  Object.assign(new Error('HTTPError'), { name: 'HTTPError', response: { status, clone: () => ({ json: () => Promise.resolve(body) }) } });
const refuse = (status: number, body: unknown) => mockPost.mockReturnValue({ json: () => Promise.reject(httpError(status, body)) });

const wrapper = ({ children }: { children: ReactNode }) => (
  <I18nextProvider i18n={i18n}><QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider></I18nextProvider>
);

async function fillAndSubmit() {
  const { result } = renderHook(() => useEntityForm(ringGroupEntity as never, null), { wrapper });
  act(() => {
    result.current.form.set('name')('Kinh doanh');
    result.current.form.set('extensions')(['101', '102']);
    result.current.form.set('destination')({ type: 'ivr', target: '3' });
  });
  let saved: boolean | undefined;
  await act(async () => { saved = await result.current.submit(); });
  return { result, saved };
}

describe('useEntityForm over a PBX entity', () => {
  beforeEach(() => mockPost.mockReset());

  it('sends nothing while the contract schema refuses the form', async () => {
    const { result } = renderHook(() => useEntityForm(ringGroupEntity as never, null), { wrapper });
    let saved: boolean | undefined;
    await act(async () => { saved = await result.current.submit(); });
    expect(saved).toBe(false);
    expect(mockPost).not.toHaveBeenCalled();
    expect(result.current.form.errors).toEqual({ name: 'Thông tin không được để trống', extensions: PBX_MSG.membersRequired });
  });

  it('posts the parsed input to the resource with the tenant', async () => {
    mockPost.mockReturnValue({ json: () => Promise.resolve({ data: { id: 1 } }) });
    const { saved } = await fillAndSubmit();
    expect(saved).toBe(true);
    expect(mockPost).toHaveBeenCalledWith('partner/group-inbounds', expect.objectContaining({
      json: { name: 'Kinh doanh', extensions: ['101', '102'], strategy: 'ringall', ring_time: 20, destination: { type: 'ivr', target: '3' }, description: '' },
    }));
  });

  it('a loop refused by the API (422 PBX_LOOP) shows its message at the top of the form', async () => {
    const message = PBX_MSG.loop('Nhóm đổ chuông "Kinh doanh" → IVR "Menu chính" → Nhóm đổ chuông "Kinh doanh"');
    refuse(422, { status: 422, code: 'PBX_LOOP', message, details: [] });
    const { result, saved } = await fillAndSubmit();
    expect(saved).toBe(false);
    expect(result.current.formError).toBe(message);
    expect(result.current.form.errors).toEqual({});
  });

  it('field details from the API go under their fields', async () => {
    refuse(400, { status: 400, code: 'VALIDATION_FAILED', message: 'Dữ liệu không hợp lệ', details: [{ field: 'destination', message: PBX_MSG.destinationMissing }] });
    const { result } = await fillAndSubmit();
    expect(result.current.formError).toBe('Dữ liệu không hợp lệ');
    expect(result.current.form.errors).toEqual({ destination: 'Điểm đến không tồn tại' });
  });
});
