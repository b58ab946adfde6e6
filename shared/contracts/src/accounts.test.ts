import * as v from 'valibot';
import { AccountCreateSchema, AccountUpdateSchema, BLANK_ACCOUNT, userLimitMessage } from './accounts';
import { PasswordChangeSchema, RoleInputSchema, RolePasswordSchema } from './roles';

const valid = { ...BLANK_ACCOUNT, full_name: 'Lê Văn Bình', username: 'le.binh', role_id: '2', password: 'MatKhau@1', password_confirmation: 'MatKhau@1' };
const messages = (schema: v.GenericSchema, input: unknown) => {
  const r = v.safeParse(schema, input);
  return r.success ? {} : Object.fromEntries(r.issues.map((i) => [v.getDotPath(i), i.message]));
};

describe('account schemas', () => {
  it('turns the blank form strings into ids and nulls; lower-cases the login', () => {
    expect(v.parse(AccountCreateSchema, { ...valid, username: 'Le.Binh', department_id: '4' })).toMatchObject({
      username: 'le.binh', role_id: 2, department_id: 4, team_id: null, branch_id: null, status: 'active',
    });
  });
  it('requires name, login, role; checks login characters, phone and password', () => {
    expect(messages(AccountCreateSchema, { ...valid, full_name: ' ', username: 'ab', role_id: '', phone: '12ab', password: 'ngan', password_confirmation: 'ngan' })).toEqual({
      full_name: 'Thông tin không được để trống',
      username: expect.stringContaining('3–64 ký tự'),
      role_id: 'Thông tin không được để trống',
      phone: 'Định dạng số điện thoại sai',
      password: 'Mật khẩu tối thiểu 8 ký tự',
    });
    expect(messages(AccountCreateSchema, { ...valid, password_confirmation: 'khac' })).toEqual({ password_confirmation: 'Mật khẩu xác nhận không khớp' });
    expect(messages(AccountCreateSchema, { ...valid, username: 'lê.bình' })).toHaveProperty('username');
  });
  it('edits without a password', () => {
    const { password: _p, password_confirmation: _c, ...rest } = valid;
    expect(messages(AccountUpdateSchema, rest)).toEqual({});
    expect(messages(PasswordChangeSchema, { password: 'MatKhau@1', password_confirmation: 'MatKhau@2' })).toEqual({ password_confirmation: 'Mật khẩu xác nhận không khớp' });
    expect(messages(RolePasswordSchema, { user_id: '', password: 'MatKhau@1', password_confirmation: 'MatKhau@1' })).toEqual({ user_id: 'Thông tin không được để trống' });
  });
  it('says how many seats are used', () => {
    expect(userLimitMessage(20, 20)).toBe('Doanh nghiệp đã dùng hết số tài khoản cho phép (20/20). Vui lòng liên hệ quản trị để nâng cấp.');
  });
});

describe('RoleInputSchema', () => {
  it('keeps catalogue permissions once and refuses unknown ones', () => {
    expect(v.parse(RoleInputSchema, { name: ' Giám sát ', permissions: ['customer.view', 'customer.view'] })).toEqual({ name: 'Giám sát', description: '', permissions: ['customer.view'] });
    expect(messages(RoleInputSchema, { name: '', permissions: ['khong.co'] })).toEqual({ name: 'Thông tin không được để trống', 'permissions.0': 'Quyền không hợp lệ' });
  });
});
