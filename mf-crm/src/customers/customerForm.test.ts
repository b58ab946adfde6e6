import { act, renderHook } from '@testing-library/react';
import type { Customer } from '@tongdai/contracts';
import { useEntityDraft } from '@tongdai/ui';
import { customerEntity } from './customers.entity';

const draftOf = (existing?: Customer, prefill?: Record<string, unknown>) => renderHook(() => useEntityDraft(customerEntity, existing, prefill)).result;

describe('the customer form: the kit draft over CustomerInputSchema', () => {
  it('shows the spec messages on the blank form and sends nothing', () => {
    const result = draftOf();
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
    const result = draftOf();
    act(() => { result.current.set('name')('Lê Văn Bình'); result.current.set('phone')('09-123'); result.current.set('status')('new'); });
    act(() => { result.current.validate(); });
    expect(result.current.errors).toEqual({ phone: 'Định dạng số điện thoại sai' });
    act(() => { result.current.set('phone')('0912345678'); });
    expect(result.current.errors.phone).toBeUndefined();
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toMatchObject({ name: 'Lê Văn Bình', phone: '0912345678', status: 'new', email: '', user_id: null, is_project: null });
  });

  it('starts a new customer with a prefilled phone (from /customer/add?phone=…)', () => {
    const result = draftOf(undefined, { phone: '0912345678' });
    expect(result.current.draft).toMatchObject({ name: '', phone: '0912345678', status: '' });
  });

  it('edit: labels become select values and the owner (not on the form) is sent back unchanged', () => {
    const existing = {
      id: 4, name: 'Phạm Thu Hà', code: 'KH04', email: '', phone: '0987654321', address: '', zalo: '', facebook: '', status: 'potential', note: '',
      user_id: 5, is_project: 2, is_datasource: null, is_status: 7, note_in_calling: null, created_at: '', updated_at: '',
    } as Customer;
    const result = draftOf(existing);
    expect(result.current.draft).toMatchObject({ name: 'Phạm Thu Hà', is_project: '2', is_datasource: '', is_status: '7', user_id: 5 });
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toMatchObject({ name: 'Phạm Thu Hà', status: 'potential', user_id: 5, is_project: 2, is_datasource: null, is_status: 7 });
  });
});
