import { CALL_FAILURE_LABELS, CALL_FAILURES } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import { NS } from '../i18n';
import type { PhoneView } from '../phone/controller';
import { badgeLabel } from './label';

const view = (p: Partial<PhoneView> & { state?: PhoneView['context']['state']; registered?: boolean; endCause?: PhoneView['context']['endCause'] } = {}): PhoneView => ({
  account: 'ready', paused: false, muted: false, customerPopup: false, canHold: false, canTransfer: false,
  context: { state: p.state ?? 'CALL_NOT_CREATED', registered: p.registered ?? false, endCause: p.endCause },
  ...p,
});

describe('badge label', () => {
  it('spec labels for active calls', () => {
    expect(badgeLabel(view({ state: 'CALL_INCOMING' }), false)).toEqual({ text: 'Cuộc gọi đến' });
    expect(badgeLabel(view({ state: 'CALL_OUT' }), false)).toEqual({ text: 'Cuộc gọi đi' });
    expect(badgeLabel(view({ state: 'CALL_CONNECTING' }), false)).toEqual({ text: 'Đang kết nối' });
    expect(badgeLabel(view({ state: 'CALL_PROCESS' }), false)).toEqual({ text: 'Đang gọi' });
    expect(badgeLabel(view({ state: 'CALL_ACCEPTED' }), false)).toEqual({ text: 'Đã kết nối' });
    expect(badgeLabel(view({ state: 'CALL_CONFIRMED' }), false)).toEqual({ text: 'Đã kết nối' });
  });
  it('idle: no extension, registering, ready, offline, paused, failed register', () => {
    expect(badgeLabel(view({ account: 'none' }), false).key).toBe('notConfigured');
    expect(badgeLabel(view(), false).key).toBe('registering');
    expect(badgeLabel(view({ registered: true }), false).key).toBe('ready');
    expect(badgeLabel(view({ state: 'CALL_OFFLINE' }), false).key).toBe('offline');
    expect(badgeLabel(view({ state: 'CALL_OFFLINE', paused: true }), false).key).toBe('paused');
    expect(badgeLabel(view({ state: 'CALL_FAILED_REGISTER_TO_SERVER' }), false).key).toBe('registerFailed');
  });
  it('after a call: how it ended for a moment, then ready', () => {
    expect(badgeLabel(view({ state: 'CALL_FAILED', endCause: 'ended', registered: true }), true).key).toBe('ended');
    expect(badgeLabel(view({ state: 'CALL_FAILED', endCause: 'failed', registered: true }), true).key).toBe('failed');
    expect(badgeLabel(view({ state: 'CALL_ENDED', endCause: 'transferred', registered: true }), true).key).toBe('transferred');
    expect(badgeLabel(view({ state: 'CALL_FAILED', endCause: 'busy', registered: true }), true).key).toBe('busy');
    expect(badgeLabel(view({ state: 'CALL_ENDED', endCause: 'declined', registered: true }), true).key).toBe('declined');
    expect(badgeLabel(view({ state: 'CALL_FAILED', endCause: 'trunk_not_configured', registered: true }), true).key).toBe('trunk_not_configured');
  });
  it('every failure label is the softphone\'s text for its key (no key of the phone\'s own shadows one)', () => {
    for (const f of CALL_FAILURES) expect(i18n.t(f, { ns: NS })).toBe(CALL_FAILURE_LABELS[f]);
    expect(badgeLabel(view({ state: 'CALL_ENDED', endCause: 'ended', registered: true }), false).key).toBe('ready');
  });
});
