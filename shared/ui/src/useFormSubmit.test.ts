import { act, renderHook } from '@testing-library/react';
import { notices$, type Notice } from '@tongdai/platform';
import { FormRefusal, useFormSubmit } from './useFormSubmit';

const seen: Notice[] = [];
notices$.subscribe((n) => seen.push(n));
beforeEach(() => { seen.length = 0; });

const form = (input: unknown) => ({ validate: () => input, setErrors: jest.fn() });

describe('useFormSubmit', () => {
  it('saves the validated input and says so in a toast', async () => {
    const save = jest.fn().mockResolvedValue(undefined);
    const { result } = renderHook(() => useFormSubmit(form({ name: 'A' }), save, () => 'Đã lưu thay đổi'));
    let ok = false;
    await act(async () => { ok = await result.current.submit(); });
    expect([ok, save.mock.calls[0][0], seen]).toEqual([true, { name: 'A' }, [{ intent: 'success', message: 'Đã lưu thay đổi' }]]);
  });

  it('sends nothing when the form is invalid', async () => {
    const save = jest.fn();
    const { result } = renderHook(() => useFormSubmit(form(null), save, () => 'x'));
    await act(async () => { await result.current.submit(); });
    expect(save).not.toHaveBeenCalled();
  });

  it('a FormRefusal thrown by save is shown above the form, with no toast', async () => {
    const message = 'Doanh nghiệp đã dùng hết số tài khoản cho phép (3/3). Vui lòng liên hệ quản trị để nâng cấp.';
    const { result } = renderHook(() => useFormSubmit(form({}), () => Promise.reject(new FormRefusal(message)), () => 'x'));
    let ok = true;
    await act(async () => { ok = await result.current.submit(); });
    expect([ok, result.current.formError, seen]).toEqual([false, message, []]);
  });

  it('no toast when the screen shows the outcome itself (successMessage null)', async () => {
    const { result } = renderHook(() => useFormSubmit(form({}), () => Promise.resolve(), () => null));
    let ok = false;
    await act(async () => { ok = await result.current.submit(); });
    expect([ok, seen]).toEqual([true, []]);
  });
});
