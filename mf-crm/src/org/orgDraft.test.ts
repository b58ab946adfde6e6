import { act, renderHook } from '@testing-library/react';
import { ORG } from './org.entities';
import { useEntityDraft } from '@tongdai/ui';

describe('the kit draft over the organisation schemas', () => {
  it('requires a team name and department with the spec message', () => {
    const { result } = renderHook(() => useEntityDraft(ORG.team, undefined));
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toBeNull();
    expect(result.current.errors).toEqual({ name: 'Thông tin không được để trống', department_id: 'Thông tin không được để trống' });
  });

  it('turns select strings into ids and "" into null', () => {
    const { result } = renderHook(() => useEntityDraft(ORG.team, undefined));
    act(() => { result.current.set('name')('Nhóm A'); result.current.set('department_id')('12'); });
    let out: unknown;
    act(() => { out = result.current.validate(); });
    expect(out).toEqual({ name: 'Nhóm A', department_id: 12, leader_id: null, description: '' });
  });

  it('checks a branch phone and a status colour', () => {
    const branch = renderHook(() => useEntityDraft(ORG.branch, undefined)).result;
    act(() => { branch.current.set('name')('Chi nhánh Huế'); branch.current.set('phone')('12ab'); });
    act(() => { branch.current.validate(); });
    expect(branch.current.errors).toEqual({ phone: 'Định dạng số điện thoại sai' });
    const status = renderHook(() => useEntityDraft(ORG.profileStatus, undefined)).result;
    act(() => { status.current.set('name')('Mới'); status.current.set('color')('red'); });
    act(() => { status.current.validate(); });
    expect(status.current.errors).toEqual({ color: 'Màu phải có dạng #RRGGBB' });
  });

  it('loads an existing row', () => {
    const row = { id: 3, name: 'Phòng Kinh doanh', code: 'KD', description: '', manager_id: 5, active: false };
    const { result } = renderHook(() => useEntityDraft(ORG.department, row));
    expect(result.current.draft).toEqual({ name: 'Phòng Kinh doanh', code: 'KD', manager_id: '5', active: false, description: '' });
  });
});
