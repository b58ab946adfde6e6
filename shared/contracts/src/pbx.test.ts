import * as v from 'valibot';
import {
  DESTINATION_FILTER_OPTIONS,
  DestinationSchema,
  InboundInputSchema,
  IvrInputSchema,
  OutboundRuleInputSchema,
  QueueInputSchema,
  RingGroupInputSchema,
  TimeConditionInputSchema,
  TimeRangeInputSchema,
  PBX_MSG,
  decodeDestination,
  destinationOptions,
  encodeDestination,
} from './pbx';
import { TELECOM_MSG } from './telecom';

const issues = (r: v.SafeParseResult<v.GenericSchema>) => (r.success ? [] : r.issues.map((i) => i.message));

describe('destinations (SPEC §9 option values)', () => {
  it('offers "all" with the empty value first, then the ten values spelled as the spec', () => {
    expect(DESTINATION_FILTER_OPTIONS[0]).toEqual({ value: '', label: 'Tất cả' });
    expect(DESTINATION_FILTER_OPTIONS.slice(1).map((o) => o.value)).toEqual(['ivr', 'direct', 'group', 'fw', 'msg', 'time', 'voicmail', 'queue', 'lastcall', 'voicemaill']);
  });
  it('turns the nested map into name/value pairs in spec order, names sorted in Vietnamese', () => {
    const options = destinationOptions({ group: { '2': 'Kinh doanh' }, ivr: { '5': 'Menu phụ', '3': 'Menu chính' }, direct: { '101': '101 - An' } });
    expect(options.map((o) => [o.name, o.value])).toEqual([
      ['IVR: Menu chính', 'ivr:3'],
      ['IVR: Menu phụ', 'ivr:5'],
      ['Máy nhánh: 101 - An', 'direct:101'],
      ['Nhóm đổ chuông: Kinh doanh', 'group:2'],
    ]);
  });
  it('encodes and decodes the select value', () => {
    expect(encodeDestination({ type: 'fw', target: '0901234567' })).toBe('fw:0901234567');
    expect(decodeDestination('fw:0901234567')).toEqual({ type: 'fw', target: '0901234567' });
    expect(decodeDestination('voicemail:1')).toBeNull();
    expect(decodeDestination('')).toBeNull();
    expect(encodeDestination(null)).toBe('');
  });
  it('checks the target against the type', () => {
    expect(v.safeParse(DestinationSchema, { type: 'direct', target: '101' }).success).toBe(true);
    expect(v.safeParse(DestinationSchema, { type: 'ivr', target: 7 }).output).toEqual({ type: 'ivr', target: '7' });
    expect(issues(v.safeParse(DestinationSchema, { type: 'fw', target: 'abc' }))).toContain(PBX_MSG.destinationTarget);
    expect(issues(v.safeParse(DestinationSchema, { type: 'ivr', target: '' }))).toContain(PBX_MSG.destinationTarget);
    expect(issues(v.safeParse(DestinationSchema, { type: 'voicemail', target: '101' }))).toContain(PBX_MSG.destinationType);
  });
});

describe('PBX object schemas', () => {
  const dest = { type: 'direct', target: '101' };
  it('inbound: DID format, optional caller pattern in Asterisk style', () => {
    expect(v.safeParse(InboundInputSchema, { did: '02873000001', caller_pattern: '09XXXXXXXX', destination: dest }).success).toBe(true);
    expect(v.safeParse(InboundInputSchema, { did: '02873000001', caller_pattern: '_09X.', destination: dest }).success).toBe(false);
    expect(v.safeParse(InboundInputSchema, { did: '028-730', destination: dest }).success).toBe(false);
    expect(issues(v.safeParse(InboundInputSchema, { did: '', destination: dest }))).toEqual(['Thông tin không được để trống']);
  });
  it('ring group: members required and unique, defaults filled', () => {
    const ok = v.safeParse(RingGroupInputSchema, { name: 'Kinh doanh', extensions: ['101', '102'] });
    expect(ok.success && ok.output).toMatchObject({ strategy: 'ringall', ring_time: 20, destination: null });
    expect(issues(v.safeParse(RingGroupInputSchema, { name: 'x', extensions: [] }))).toContain(PBX_MSG.membersRequired);
    expect(issues(v.safeParse(RingGroupInputSchema, { name: 'x', extensions: ['101', '101'] }))).toContain(PBX_MSG.duplicateMember);
  });
  it('IVR: one destination per digit', () => {
    const entries = [{ digit: '1', destination: dest }, { digit: '1', destination: dest }];
    expect(issues(v.safeParse(IvrInputSchema, { name: 'Menu', entries }))).toContain(PBX_MSG.duplicateDigit);
  });
  it('queue: the wall turns amber before red (amber threshold below the red one, the message under amber)', () => {
    const queue = { name: 'Hỗ trợ', agents: ['101'] };
    expect(v.safeParse(QueueInputSchema, queue).success).toBe(true);
    const same = v.safeParse(QueueInputSchema, { ...queue, amber_wait_seconds: 60, red_wait_seconds: 60 });
    expect(same.success ? [] : same.issues.map((i) => [v.getDotPath(i), i.message])).toEqual([['amber_wait_seconds', PBX_MSG.amberBelowRed]]);
    expect(issues(v.safeParse(QueueInputSchema, { ...queue, amber_wait_seconds: 90, red_wait_seconds: 60 }))).toEqual([PBX_MSG.amberBelowRed]);
    expect(v.safeParse(QueueInputSchema, { ...queue, amber_wait_seconds: 59, red_wait_seconds: 60 }).success).toBe(true);
  });
  it('time range: HH:MM, day of week 1..7, empty means any', () => {
    const r = v.safeParse(TimeRangeInputSchema, { time_start: '08:00', time_end: '17:30', dow_start: '1', dow_end: 5, dom_start: '' });
    expect(r.success && r.output).toMatchObject({ dow_start: 1, dow_end: 5, dom_start: null, month_start: null });
    expect(v.safeParse(TimeRangeInputSchema, { dow_start: 8 }).success).toBe(false);
    expect(issues(v.safeParse(TimeRangeInputSchema, { time_start: '24:00' }))).toContain(PBX_MSG.timeFormat);
  });
  it('time condition: time zone checked, Asia/Ho_Chi_Minh by default', () => {
    const base = { name: 'Giờ HC', time_group_id: 1, matched_destination: dest, unmatched_destination: { type: 'ivr', target: '2' } };
    const ok = v.safeParse(TimeConditionInputSchema, base);
    expect(ok.success && ok.output.timezone).toBe('Asia/Ho_Chi_Minh');
    expect(issues(v.safeParse(TimeConditionInputSchema, { ...base, timezone: 'Mars/Olympus' }))).toContain(PBX_MSG.timezone);
  });
  it('outbound rule: dial pattern, ordered switchboards (at least one), caller id mode', () => {
    const ok = v.safeParse(OutboundRuleInputSchema, { name: 'Di động', pattern: '0[3-9]XXXXXXXX', switchboard_ids: [3, 1] });
    expect(ok.success && [ok.output.switchboard_ids, ok.output.caller_id_mode]).toEqual([[3, 1], 'fixed']);
    expect(v.safeParse(OutboundRuleInputSchema, { name: 'Quốc tế', pattern: '00.', switchboard_ids: [1], caller_id_mode: 'carrier', allow_international: true }).success).toBe(true);
    expect(issues(v.safeParse(OutboundRuleInputSchema, { name: 'x', pattern: 'abc', switchboard_ids: [1] }))).toContain(PBX_MSG.dialPattern);
    expect(issues(v.safeParse(OutboundRuleInputSchema, { name: 'x', pattern: '09.', trunk: 'viettel' }))).toContain(TELECOM_MSG.switchboardsRequired);
    expect(issues(v.safeParse(OutboundRuleInputSchema, { name: 'x', pattern: '09.', switchboard_ids: [] }))).toContain(TELECOM_MSG.switchboardsRequired);
    expect(v.safeParse(OutboundRuleInputSchema, { name: 'x', pattern: '09.', switchboard_ids: [1], caller_id_mode: 'random' }).success).toBe(false);
  });
});
