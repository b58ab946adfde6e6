import { act, renderHook } from '@testing-library/react';
import { useCustomerForm } from './useCustomerForm';

describe('useCustomerForm', () => {
  it('shows the spec messages on the blank form and sends nothing', () => {
    const { result } = renderHook(() => useCustomerForm(undefined));
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toBeNull();
    expect(result.current.errors).toEqual({
      name: 'Thông tin không được để trống',
      phone: 'Thông tin không được để trống',
      status: 'Thông tin không được để trống',
    });
  });

  it('flags a malformed phone, clears a field error on edit, then parses', () => {
    const { result } = renderHook(() => useCustomerForm(undefined));
    act(() => { result.current.set('name')('Lê Văn Bình'); result.current.set('phone')('09-123'); result.current.set('status')('new'); });
    act(() => { result.current.validate(); });
    expect(result.current.errors).toEqual({ phone: 'Định dạng số điện thoại sai' });
    act(() => { result.current.set('phone')('0912345678'); });
    expect(result.current.errors.phone).toBeUndefined();
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toMatchObject({ name: 'Lê Văn Bình', phone: '0912345678', status: 'new', email: '' });
  });

  it('starts a new customer with a prefilled phone (from /customer/add?phone=…)', () => {
    const { result } = renderHook(() => useCustomerForm(undefined, { phone: '0912345678' }));
    expect(result.current.draft).toMatchObject({ name: '', phone: '0912345678', status: '' });
  });
});
