import { act, renderHook } from '@testing-library/react';
import { RECORDING_MSG, type Subscriber } from '@tongdai/contracts';
import { useEntityDraft, type EntityDraft } from '@tongdai/ui';
import { NEW_SUBSCRIBER, subscriberEntity } from './subscribers.entity';

const useSubscriberDraft = (existing: Subscriber | undefined) => useEntityDraft(subscriberEntity, existing, existing ? undefined : NEW_SUBSCRIBER);
/** What a new extension's untouched ring time and mailbox send: the defaults, mailbox on (no PIN). */
const NEW_DEFAULTS = { ring_time: null, recording_mode: null, voicemail_enabled: true, voicemail_pin: null, voicemail_greeting_id: null, voicemail_max_seconds: 120 };

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
    expect(validateNow(result)).toEqual({ extension: '12', display_name: 'Lễ tân', user_id: null, ...NEW_DEFAULTS });
    act(() => { result.current.set('extension')('123456'); result.current.set('user_id')('7'); });
    expect(validateNow(result)).toEqual({ extension: '123456', display_name: 'Lễ tân', user_id: 7, ...NEW_DEFAULTS });
  });

  it('clears a field error when the field is edited', () => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    validateNow(result);
    act(() => { result.current.set('extension')('120'); });
    expect(result.current.errors.extension).toBeUndefined();
    expect(result.current.errors.display_name).toBe('Thông tin không được để trống');
  });

  it('edit: starts from the subscriber, linked account as a select value', () => {
    const sub: Subscriber = {
      id: 3, extension: '101', display_name: 'Quản trị', user_id: 5, user_name: 'admin', created_at: '2026-01-01T00:00:00Z',
      ring_time: 25, voicemail_enabled: true, voicemail_pin: '1357', voicemail_greeting_id: 9, voicemail_max_seconds: 60, recording_mode: 'outbound',
    };
    const { result } = renderHook(() => useSubscriberDraft(sub));
    expect(result.current.draft).toEqual({
      extension: '101', display_name: 'Quản trị', user_id: '5',
      ring_time: '25', recording_mode: 'outbound', voicemail_enabled: true, voicemail_pin: '1357', voicemail_greeting_id: '9', voicemail_max_seconds: '60',
    });
    act(() => { result.current.set('user_id')(''); });
    expect(validateNow(result)).toEqual({
      extension: '101', display_name: 'Quản trị', user_id: null,
      ring_time: 25, recording_mode: 'outbound', voicemail_enabled: true, voicemail_pin: '1357', voicemail_greeting_id: 9, voicemail_max_seconds: 60,
    });
  });

  it("recording: '' is the tenant's (null), a mode is sent as chosen, anything else is refused in Vietnamese", () => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    expect(result.current.draft.recording_mode).toBe('');
    act(() => { result.current.set('extension')('106'); result.current.set('display_name')('Kế toán'); });
    expect(validateNow(result)).toMatchObject({ recording_mode: null });
    act(() => { result.current.set('recording_mode')('inbound'); });
    expect(validateNow(result)).toMatchObject({ recording_mode: 'inbound' });
    act(() => { result.current.set('recording_mode')('sometimes'); });
    expect(validateNow(result)).toBeNull();
    expect(result.current.errors).toEqual({ recording_mode: RECORDING_MSG.mode });
  });

  it('a new extension starts with its mailbox on; switched off, the form sends it off', () => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    act(() => { result.current.set('extension')('106'); result.current.set('display_name')('Kế toán'); });
    expect(validateNow(result)).toMatchObject({ voicemail_enabled: true, voicemail_pin: null });
    act(() => { result.current.set('voicemail_enabled')(false); });
    expect(validateNow(result)).toMatchObject({ voicemail_enabled: false });
  });

  it('ring time and mailbox: Vietnamese messages for a PIN, a ring time or a length out of range; a blank ring time is the default', () => {
    const { result } = renderHook(() => useSubscriberDraft(undefined));
    act(() => {
      result.current.set('extension')('105'); result.current.set('display_name')('Kho');
      result.current.set('ring_time')('3'); result.current.set('voicemail_enabled')(true);
      result.current.set('voicemail_pin')('12a4'); result.current.set('voicemail_max_seconds')('5');
    });
    expect(validateNow(result)).toBeNull();
    expect(result.current.errors).toEqual({
      ring_time: 'Thời gian đổ chuông từ 5 đến 300 giây',
      voicemail_pin: 'Mã PIN hộp thư gồm 4–8 chữ số',
      voicemail_max_seconds: 'Thời lượng tin nhắn từ 10 đến 600 giây',
    });
    act(() => { result.current.set('ring_time')(''); result.current.set('voicemail_pin')('0000'); result.current.set('voicemail_max_seconds')('90'); });
    expect(validateNow(result)).toMatchObject({ ring_time: null, voicemail_enabled: true, voicemail_pin: '0000', voicemail_max_seconds: 90 });
  });
});
