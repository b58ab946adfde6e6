import { signRecordingTicket, verifyRecordingTicket } from './recording-ticket';

describe('recording tickets', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('names the tenant it was signed for, for that call only', () => {
    const t = signRecordingTicket(42, 'abc@host', now);
    expect(verifyRecordingTicket(t, 'abc@host', now + 1000)).toBe(42);
    expect(verifyRecordingTicket(t, 'other@host', now)).toBeNull();
  });

  it('refuses a ticket whose tenant was changed, a forged mac and an expired ticket', () => {
    const t = signRecordingTicket(42, 'abc@host', now);
    const [, exp, sig] = t.split('.');
    expect(verifyRecordingTicket(`43.${exp}.${sig}`, 'abc@host', now)).toBeNull();
    expect(verifyRecordingTicket(`42.${exp}.${'A'.repeat(43)}`, 'abc@host', now)).toBeNull();
    expect(verifyRecordingTicket(t, 'abc@host', now + 7 * 3_600_000)).toBeNull();
    expect(verifyRecordingTicket('garbage', 'abc@host', now)).toBeNull();
  });
});
