import { act, renderHook } from '@testing-library/react';
import type { RoleDetail } from '@tongdai/contracts';
import { useEntityDraft } from '@tongdai/ui';
import { roleEntity } from '../roles/roles.entity';
import { accountCreateForm, accountEntity } from './accounts.entity';

const validate = (result: { current: { validate(): unknown } }) => {
  let out: unknown;
  act(() => { out = result.current.validate(); });
  return out;
};

describe('the account and role forms: the kit draft over the contract schemas', () => {
  it('a new account starts active and asks for the password twice, matching', () => {
    const { result } = renderHook(() => useEntityDraft(accountCreateForm, undefined, { status: 'active' }));
    expect(result.current.draft).toMatchObject({ status: 'active', role_id: '', password: '', password_confirmation: '' });
    act(() => {
      result.current.set('full_name')('Lê Văn Bình'); result.current.set('username')('Le.Binh'); result.current.set('role_id')('2');
      result.current.set('password')('MatKhau@1'); result.current.set('password_confirmation')('MatKhau@2');
    });
    expect(validate(result)).toBeNull();
    expect(Object.keys(result.current.errors)).toEqual(['password_confirmation']);
    act(() => { result.current.set('password_confirmation')('MatKhau@1'); });
    expect(validate(result)).toMatchObject({ username: 'le.binh', role_id: 2, department_id: null, status: 'active', password: 'MatKhau@1' });
  });

  it('editing an account shows its ids as select values and sends no password', () => {
    const row = { id: 3, full_name: 'Trần An', username: 'tran.an', email: '', phone: '', role_id: 2, department_id: 4, team_id: null, branch_id: null, status: 'active' };
    const { result } = renderHook(() => useEntityDraft(accountEntity, row));
    expect(result.current.draft).toEqual({ full_name: 'Trần An', username: 'tran.an', email: '', phone: '', role_id: '2', department_id: '4', team_id: '', branch_id: '', status: 'active' });
    expect(validate(result)).not.toHaveProperty('password');
  });

  it('a role detail lists permission rows; the draft holds their names', () => {
    const role = { id: 5, name: 'xem-khach', display_name: null, description: '', permissions: [{ name: 'customer.view' }], users: [] } as unknown as RoleDetail;
    const { result } = renderHook(() => useEntityDraft(roleEntity, role));
    expect(result.current.draft).toEqual({ name: 'xem-khach', display_name: '', description: '', permissions: ['customer.view'] });
    expect(validate(result)).toEqual({ name: 'xem-khach', display_name: '', description: '', permissions: ['customer.view'] });
  });
});
