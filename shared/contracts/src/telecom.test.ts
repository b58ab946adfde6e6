import * as v from 'valibot';
import { callerIdForm, HotlineInputSchema, HotlineUpdateSchema, SwitchboardInputSchema, TELECOM_API, TELECOM_MSG, TelecomCallLogQuerySchema, hotlineCarrier, hotlineKind } from './telecom';
import { REPORT_MSG } from './reports';

const issues = (r: v.SafeParseResult<v.GenericSchema>) => (r.success ? [] : r.issues.map((i) => i.message));

describe('telecom contracts (issue 15)', () => {
  it('the API paths the screens and the partner API share', () => {
    expect([TELECOM_API.switchboards, TELECOM_API.switchboard(7), TELECOM_API.hotlines, TELECOM_API.hotline('9')]).toEqual([
      'etelecom/switchboards', 'etelecom/switchboards/7', 'etelecom/hotlines', 'etelecom/hotlines/9',
    ]);
    expect(TELECOM_API.partner).toEqual({ switchboards: 'etelecom/switchboards', hotlines: 'etelecom/hotlines', callLogs: 'etelecom/call-logs' });
  });

  it('a hotline is a 1800/1900, landline or mobile number; a mobile says its carrier', () => {
    expect(['18001234', '19001234', '02873000001', '+84 912 345 678', '12345'].map(hotlineKind)).toEqual(['tollfree', 'premium', 'landline', 'mobile', null]);
    expect(['0987654321', '0912345678', '0901234567', '02873000001'].map(hotlineCarrier)).toEqual(['viettel', 'vnpt', 'mobifone', null]);
    expect(issues(v.safeParse(HotlineInputSchema, { number: '12345', switchboard_id: 1, destination: { type: 'direct', target: '101' } }))).toEqual([TELECOM_MSG.hotlineNumber]);
    expect(issues(v.safeParse(HotlineInputSchema, { number: '02873000001', switchboard_id: 'x', destination: { type: 'direct', target: '101' } }))).toContain(TELECOM_MSG.switchboardRequired);
  });

  it("a switchboard writes the caller ID in its carrier's form: national by default, 84… or +84…", () => {
    const base = { name: 'Viettel', host: 'sip.viettel.vn', register: false };
    expect(v.parse(SwitchboardInputSchema, base).caller_id_format).toBe('national');
    expect(v.parse(SwitchboardInputSchema, { ...base, caller_id_format: 'e164' }).caller_id_format).toBe('e164');
    expect(issues(v.safeParse(SwitchboardInputSchema, { ...base, caller_id_format: '0084' }))).toEqual(['Giá trị không hợp lệ']);
    // Whatever form the hotline is stored or typed in.
    for (const n of ['02873001234', '842873001234', '+84 28 7300 1234']) {
      expect([callerIdForm(n, 'national'), callerIdForm(n, 'international'), callerIdForm(n, 'e164')]).toEqual(['02873001234', '842873001234', '+842873001234']);
    }
    expect(['national', 'international', 'e164'].map((f) => callerIdForm('0987654321', f as 'national'))).toEqual(['0987654321', '84987654321', '+84987654321']);
    // 1800/1900 have one form; a foreign number is sent as it is.
    expect(['national', 'international', 'e164'].map((f) => callerIdForm('19001234', f as 'national'))).toEqual(['19001234', '19001234', '19001234']);
    expect(callerIdForm('+6588001234', 'national')).toBe('+6588001234');
  });

  it("a switchboard's host is a name, an IPv4 address in any spelling or an IPv6 literal: the API's host policy judges where it points (issue 32)", () => {
    const host = (h: string) => issues(v.safeParse(SwitchboardInputSchema, { name: 'x', host: h, register: false }));
    for (const h of ['sip.viettel.vn', '203.113.131.5', '2130706433', '0x7f000001', '0177.0.0.1', '[::1]', '::ffff:127.0.0.1', 'fe80::1%eth0']) expect([h, host(h)]).toEqual([h, []]);
    for (const h of ['not a host!', 'http://x', 'a/b', '[', 'x'.repeat(300)]) expect([h, host(h)]).toEqual([h, [TELECOM_MSG.host]]);
  });

  it('a hotline edit keeps the number; active defaults to true', () => {
    const r = v.safeParse(HotlineUpdateSchema, { number: '0999', switchboard_id: '3', destination: { type: 'direct', target: '101' } });
    // advertising_identity absent: the stored identity is kept (the service writes it only when given).
    expect(r.success && r.output).toEqual({ switchboard_id: 3, destination: { type: 'direct', target: '101' }, description: '', active: true, advertising_name: '', advertising_registered_on: null });
  });

  it("a hotline's dialer cap: 1–600 calls a minute, typed or as a number; empty or null is no cap; absent keeps it", () => {
    const base = { switchboard_id: 3, destination: { type: 'direct', target: '101' } };
    const cap = (x: unknown) => {
      const r = v.safeParse(HotlineUpdateSchema, { ...base, max_calls_per_minute: x });
      return r.success ? r.output.max_calls_per_minute : issues(r);
    };
    expect([cap(' 30 '), cap(1), cap('600'), cap(''), cap(null), cap(undefined)]).toEqual([30, 1, 600, null, null, undefined]);
    for (const bad of ['0', '601', '2.5', 2.5, '-3', 'ba mươi', 0, true]) expect(cap(bad)).toEqual([TELECOM_MSG.dialRate]);
  });

  it("call logs: Vietnam days in order, a hotline id, the reports' words for a wrong filter", () => {
    const ok = v.safeParse(TelecomCallLogQuerySchema, { hotline_id: '4', from: '2026-11-01', to: '2026-11-23' });
    expect(ok.success && [ok.output.hotline_id, ok.output.page, ok.output.per_page]).toEqual([4, 1, 10]);
    expect(issues(v.safeParse(TelecomCallLogQuerySchema, { from: '2026-02-30' }))).toEqual([REPORT_MSG.badDate]);
    expect(issues(v.safeParse(TelecomCallLogQuerySchema, { from: '2026-11-23', to: '2026-11-01' }))).toEqual([REPORT_MSG.endBeforeStart]);
    expect(issues(v.safeParse(TelecomCallLogQuerySchema, { hotline_id: 'abc' }))).toEqual([REPORT_MSG.badId]);
  });
});
