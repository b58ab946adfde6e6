import { PBX_MSG } from '@tongdai/contracts';
import { inboundEntity } from '../inbounds/inbounds.entity';
import { ivrEntity } from '../ivr-details/ivr.entity';
import { numberEntity } from '../numbers/numbers.entity';
import { queueEntity } from '../queue/queue.entity';
import { ringGroupEntity } from '../ringgroup/ringgroup.entity';
import { blankDraft, clearErrors, errorOf, parseDraft, toDraft } from '@tongdai/ui';

const REQUIRED = 'Thông tin không được để trống';

describe('form value ↔ API input', () => {
  it('a blank ring group starts from the schema defaults', () => {
    expect(blankDraft(ringGroupEntity)).toEqual({
      name: '', strategy: 'ringall', extensions: [], ring_time: '20', destination: null, description: '',
    });
    expect(blankDraft(numberEntity)).toEqual({ number: '', description: '', active: true });
    expect(blankDraft(ivrEntity)).toMatchObject({ timeout: '5', invalid_retries: '3', direct_dial: false, greeting_id: '', entries: [] });
  });

  it('refuses a blank ring group with the contract messages', () => {
    const r = parseDraft(ringGroupEntity.schema, blankDraft(ringGroupEntity));
    expect(r).toEqual({ ok: false, errors: { name: REQUIRED, extensions: PBX_MSG.membersRequired } });
  });

  it('turns the typed ring group into the API input (order kept, text to numbers, no destination = hang up)', () => {
    const draft = { ...blankDraft(ringGroupEntity), name: ' Kinh doanh ', extensions: ['102', '101'], ring_time: '30', strategy: 'hunt' };
    expect(parseDraft(ringGroupEntity.schema, draft)).toEqual({
      ok: true,
      input: { name: 'Kinh doanh', extensions: ['102', '101'], strategy: 'hunt', ring_time: 30, destination: null, description: '' },
    });
  });

  it('reads an API row back into the form', () => {
    const row = {
      id: 4, name: 'Bán hàng', agents: ['101', '102'], strategy: 'rrmemory', agent_timeout: 15, max_wait: 300,
      timeout_destination: { type: 'fw', target: '0901234567' }, join_greeting_id: 7, moh_class: '', description: '', created_at: '', updated_at: '',
      sla_seconds: 20, amber_wait_seconds: 30, red_wait_seconds: 60, recording_mode: 'inbound', csat: true,
    };
    const draft = toDraft(queueEntity, row);
    expect(draft).toEqual({
      name: 'Bán hàng', strategy: 'rrmemory', agents: ['101', '102'], agent_timeout: '15', max_wait: '300',
      timeout_destination: { type: 'fw', target: '0901234567' }, join_greeting_id: '7', moh_class: '', description: '',
      sla_seconds: '20', amber_wait_seconds: '30', red_wait_seconds: '60', recording_mode: 'inbound', csat: true,
    });
    const parsed = parseDraft(queueEntity.schema, { ...draft, join_greeting_id: '', recording_mode: '' });
    expect(parsed.ok && parsed.input).toMatchObject({ join_greeting_id: null, agent_timeout: 15, timeout_destination: { type: 'fw', target: '0901234567' }, recording_mode: null, csat: true });
    // A new queue does not ask its callers to rate the call (post-call CSAT is off by default).
    expect(blankDraft(queueEntity)).toMatchObject({ csat: false });
    expect(parseDraft(queueEntity.schema, { ...draft, csat: false })).toMatchObject({ ok: true, input: { csat: false } });
    // The form shows the thresholds' rule under the amber one.
    expect(parseDraft(queueEntity.schema, { ...draft, amber_wait_seconds: '60', red_wait_seconds: '60' })).toEqual({ ok: false, errors: { amber_wait_seconds: PBX_MSG.amberBelowRed } });
  });

  it('inbound: a destination must be chosen, and an fw target must be a phone number', () => {
    const base = { ...blankDraft(inboundEntity), did: '02873000001' };
    expect(parseDraft(inboundEntity.schema, base)).toEqual({ ok: false, errors: { destination: PBX_MSG.destinationType } });
    const fw = parseDraft(inboundEntity.schema, { ...base, destination: { type: 'fw', target: 'abc' } });
    expect(fw.ok).toBe(false);
    if (!fw.ok) expect(errorOf(fw.errors, 'destination')).toBe(PBX_MSG.destinationTarget);
    const bad = parseDraft(inboundEntity.schema, { ...base, caller_pattern: '09*' });
    expect(!bad.ok && bad.errors.caller_pattern).toBe(PBX_MSG.callerPattern);
  });

  it('IVR entries: each row is checked, and a digit may be used once', () => {
    const base = { ...blankDraft(ivrEntity), name: 'Menu chính' };
    const incomplete = parseDraft(ivrEntity.schema, { ...base, entries: [{ digit: '1', destination: null }] });
    expect(!incomplete.ok && errorOf(incomplete.errors, 'entries.0.destination')).toBe(PBX_MSG.destinationType);
    const twice = parseDraft(ivrEntity.schema, {
      ...base,
      entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }, { digit: '1', destination: { type: 'direct', target: '102' } }],
    });
    expect(!twice.ok && twice.errors.entries).toBe(PBX_MSG.duplicateDigit);
    const ok = parseDraft(ivrEntity.schema, { ...base, entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }] });
    expect(ok.ok && ok.input).toMatchObject({ entries: [{ digit: '1', destination: { type: 'direct', target: '101' } }], timeout: 5, direct_dial: false, greeting_id: null });
  });

  it('an edit clears the errors of that field and its parts only', () => {
    expect(clearErrors({ destination: 'a', 'destination.target': 'b', name: 'c' }, 'destination')).toEqual({ name: 'c' });
  });
});
