import { act, renderHook } from '@testing-library/react';
import type { Subscriber } from '@tongdai/contracts';
import { useEntityDraft, type EntityDraft } from '@tongdai/ui';
import { subscriberEntity } from './subscribers.entity';

const useSubscriberDraft = (existing: Subscriber | undefined) => useEntityDraft(subscriberEntity, existing);

const validateNow = (result: { current: EntityDraft }) => {
  let out: unknown;
  act(() => { out = result.current.validate(); });
  return out;
};

describe('the subscriber form: the kit draft over SubscriberInputSchema', () => {
  it('blank form: both required fields flagged, nothing sent', () => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    expect(validateNow(result)).toBeNull();
    expect(result.current.errors).toEqual({
      extension: 'Thông tin không được để trống',
      display_name: 'Thông tin không được để trống',
    });
  });

  it.each(['1', '1234567', '12a', '+101', '10 1'])('rejects extension %p', (ext) => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    act(() => { result.current.set('extension')(ext); result.current.set('display_name')('Lễ tân'); });
    expect(validateNow(result)).toBeNull();
    expect(result.current.errors).toEqual({ extension: 'Số máy nhánh gồm 2–6 chữ số' });
  });

  it('accepts 2 and 6 digits, trims, and "" means no linked account', () => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    act(() => { result.current.set('extension')(' 12 '); result.current.set('display_name')('  Lễ tân  '); });
    expect(validateNow(result)).toEqual({ extension: '12', display_name: 'Lễ tân', user_id: null });
    act(() => { result.current.set('extension')('123456'); result.current.set('user_id')('7'); });
    expect(validateNow(result)).toEqual({ extension: '123456', display_name: 'Lễ tân', user_id: 7 });
  });

  it('clears a field error when the field is edited', () => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    validateNow(result);
    act(() => { result.current.set('extension')('120'); });
    expect(result.current.errors.extension).toBeUndefined();
    expect(result.current.errors.display_name).toBe('Thông tin không được để trống');
  });

  it('edit: starts from the subscriber, linked account as a select value', () => {
    const sub: Subscriber = { id: 3, extension: '101', display_name: 'Quản trị', user_id: 5, user_name: 'admin', created_at: '2026-01-01T00:00:00Z' };
    const { result } = renderHook(() => useSubscriberDraft(sub));
    expect(result.current.draft).toEqual({ extension: '101', display_name: 'Quản trị', user_id: '5' });
    act(() => { result.current.set('user_id')(''); });
    expect(validateNow(result)).toEqual({ extension: '101', display_name: 'Quản trị', user_id: null });
  });
});
