import * as v from 'valibot';
import { maskPhone, SystemSettingInputSchema } from './settings';
import { SignupSchema, SIGNUP_MSG } from './signup';

describe('maskPhone', () => {
  it('keeps the length, so masking twice changes nothing (the API and the screens both mask)', () => {
    expect(maskPhone('0912345678')).toBe('091***5678');
    expect(maskPhone(maskPhone('0912345678', 4), 4)).toBe('0912***678');
  });
});

describe('SystemSettingInputSchema', () => {
  it('coerces form strings to numbers', () => {
    expect(v.parse(SystemSettingInputSchema, { hidden_phone_customer: '1', position_hidden_phone_customer: '3', show_popup_customer: 0, voice_over_internet_protocol: '2' }))
      .toEqual({ hidden_phone_customer: 1, position_hidden_phone_customer: 3, show_popup_customer: 0, voice_over_internet_protocol: 2 });
  });
  it('does not read "" (or blanks, hex, exponents) as 0 (issue 12 §6)', () => {
    const ok = { hidden_phone_customer: 1, position_hidden_phone_customer: 3, show_popup_customer: 0, voice_over_internet_protocol: 2 };
    for (const [field, value, message] of [
      ['hidden_phone_customer', '', 'Thông tin không được để trống'],
      ['position_hidden_phone_customer', '  ', 'Thông tin không được để trống'],
      ['show_popup_customer', '0x1', 'Phải là số nguyên'],
      ['voice_over_internet_protocol', '1e0', 'Phải là số nguyên'],
    ] as const) {
      const r = v.safeParse(SystemSettingInputSchema, { ...ok, [field]: value });
      expect(r.success ? [] : r.issues.map((i) => [v.getDotPath(i), i.message])).toEqual([[field, message]]);
    }
  });
});

describe('SignupSchema', () => {
  const ok = { company_name: 'Công ty A', ma_dn: 'Cong-Ty-A', full_name: 'An', username: 'admin', email: 'a@a.vn', phone: '0912345678', password: '12345678', password_confirmation: '12345678' };
  it('lowercases the tenant code', () => {
    expect(v.parse(SignupSchema, ok).ma_dn).toBe('cong-ty-a');
  });
  it('reports a confirmation mismatch on the confirmation field', () => {
    const r = v.safeParse(SignupSchema, { ...ok, password_confirmation: '87654321' });
    expect(r.success ? [] : r.issues.map((i) => [v.getDotPath(i), i.message])).toEqual([['password_confirmation', SIGNUP_MSG.passwordMismatch]]);
  });
});
