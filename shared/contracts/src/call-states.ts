/** Call states of SPEC §4. */
export const CALL_STATES = [
  'CALL_NOT_CREATED',
  'CALL_INCOMING',
  'CALL_OUT',
  'CALL_CONNECTING',
  'CALL_PROCESS',
  'CALL_ACCEPTED',
  'CALL_CONFIRMED',
  'CALL_ENDED',
  'CALL_FAILED',
  'CALL_FAILED_REGISTER_TO_SERVER',
  'CALL_OFFLINE',
] as const;
export type CallState = (typeof CALL_STATES)[number];
export const INITIAL_CALL_STATE: CallState = 'CALL_NOT_CREATED';

/** States in which a call counts as active. */
export const ACTIVE_CALL_STATES: readonly CallState[] = ['CALL_INCOMING', 'CALL_OUT', 'CALL_ACCEPTED', 'CALL_PROCESS', 'CALL_CONFIRMED', 'CALL_CONNECTING'];

/** Badge labels, exact Vietnamese text of SPEC §4. */
export const CALL_BADGE_LABELS: Partial<Record<CallState, string>> = {
  CALL_INCOMING: 'Cuộc gọi đến',
  CALL_OUT: 'Cuộc gọi đi',
  CALL_CONNECTING: 'Đang kết nối',
  CALL_PROCESS: 'Đang gọi',
  CALL_ACCEPTED: 'Đã kết nối',
  CALL_CONFIRMED: 'Đã kết nối',
};

export function isActiveCallState(s: CallState): boolean {
  return ACTIVE_CALL_STATES.includes(s);
}

/** One event on the call bus. Tagged with a type string and version: never instanceof across remotes. */
export interface CallEvent {
  kind: 'tongdai.call-event';
  version: 1;
  state: CallState;
  direction?: 'incoming' | 'outgoing';
  remoteNumber?: string;
  at: number;
}
