import { detectHotline, formatHotline } from './hotlineNumber';

describe('detectHotline', () => {
  it('names 1800/1900 numbers by their kind, without a carrier (the switchboard says it)', () => {
    expect(detectHotline('19001234')).toEqual({ kind: 'premium', carrier: null, label: '1900 (người gọi trả phí)' });
    expect(detectHotline('1800 123 456')).toEqual({ kind: 'tollfree', carrier: null, label: '1800 (miễn phí người gọi)' });
  });
  it('names a mobile number\'s carrier from its prefix, in any written form', () => {
    expect(detectHotline('0961 234 567')?.label).toBe('Di động · Viettel');
    expect(detectHotline('+84912345678')?.label).toBe('Di động · VNPT (Vinaphone)');
    expect(detectHotline('0901234567')?.carrier).toBe('mobifone');
  });
  it('knows a landline', () => {
    expect(detectHotline('02838234567')).toEqual({ kind: 'landline', carrier: null, label: 'Cố định' });
  });
  it('says nothing of what cannot be a hotline yet (half typed, too long, foreign)', () => {
    expect(detectHotline('0961')).toBeNull();
    expect(detectHotline('096123456789')).toBeNull();
    expect(detectHotline('+14155550100')).toBeNull();
    expect(detectHotline('')).toBeNull();
  });
});

describe('formatHotline', () => {
  it('groups the digits the way Vietnamese numbers are read', () => {
    expect(formatHotline('19001234')).toBe('1900 1234');
    expect(formatHotline('1800123456')).toBe('1800 123 456');
    expect(formatHotline('84961234567')).toBe('0961 234 567');
    expect(formatHotline('842838234567')).toBe('028 3823 4567');
  });
  it('leaves a number it cannot read as it is', () => {
    expect(formatHotline('101')).toBe('101');
  });
});
