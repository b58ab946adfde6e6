import * as v from 'valibot';
import { CustomerInputSchema, CustomerListQuerySchema } from './customer';
import { phoneVariants } from './phone';

const valid = { name: 'Nguyễn Văn An', phone: '0912345678', status: 'new' };
const messages = (input: unknown) => {
  const r = v.safeParse(CustomerInputSchema, input);
  return r.success ? {} : Object.fromEntries(r.issues.map((i) => [v.getDotPath(i), i.message]));
};

describe('CustomerInputSchema (SPEC §5)', () => {
  it('accepts a minimal customer and fills the blank fields', () => {
    const r = v.parse(CustomerInputSchema, valid);
    expect(r).toMatchObject({ name: 'Nguyễn Văn An', email: '', address: '', user_id: null });
  });
  it('requires the name with the exact message', () => {
    expect(messages({ ...valid, name: '   ' })).toEqual({ name: 'Thông tin không được để trống' });
    expect(messages({ ...valid, name: undefined })).toEqual({ name: 'Thông tin không được để trống' });
  });
  it.each(['0912345678', '84912345678', '1234567', '123456789012', '0123456789012'])('accepts phone %s', (phone) => {
    expect(messages({ ...valid, phone })).toEqual({});
  });
  it.each(['123456', '1234567890123', '+84912345678', '09a2345678', '0912 345 678'])('refuses phone %s', (phone) => {
    expect(messages({ ...valid, phone })).toEqual({ phone: 'Định dạng số điện thoại sai' });
  });
  it('requires the phone and the status', () => {
    expect(messages({ ...valid, phone: '' })).toEqual({ phone: 'Thông tin không được để trống' });
    expect(messages({ ...valid, status: '' })).toEqual({ status: 'Thông tin không được để trống' });
  });
  it('checks the email when given', () => {
    expect(messages({ ...valid, email: 'khong-hop-le' })).toEqual({ email: 'Email không hợp lệ' });
    expect(messages({ ...valid, email: 'an@congty.vn' })).toEqual({});
  });
});

describe('CustomerListQuerySchema', () => {
  it('defaults to page 1 with 10 rows', () => {
    expect(v.parse(CustomerListQuerySchema, {})).toEqual({ page: 1, per_page: 10, search: '', status: '' });
  });
  it('coerces query strings and refuses a page of 0', () => {
    expect(v.parse(CustomerListQuerySchema, { page: '3' }).page).toBe(3);
    expect(v.safeParse(CustomerListQuerySchema, { page: '0' }).success).toBe(false);
  });
});

describe('phoneVariants (caller ID → customer phone)', () => {
  it('gives every stored form of a Vietnamese number, whatever form the caller ID has', () => {
    for (const f of ['0912345678', '84912345678', '912345678', '+84912345678', '+84 912 345 678']) {
      expect(phoneVariants(f).sort()).toEqual(['0912345678', '84912345678', '912345678']);
    }
  });
  it('an extension or a short code is only itself; anything else matches nothing', () => {
    expect(phoneVariants('101')).toEqual(['101']);
    expect(phoneVariants('8412345')).toEqual(['8412345', '08412345', '848412345']);
    expect(phoneVariants('*97')).toEqual([]);
    expect(phoneVariants('')).toEqual([]);
  });
});
