import { CALL_BADGE_LABELS, isActiveCallState } from '@tongdai/contracts';
import type { PhoneView } from '../phone/controller';

/**
 * i18n key (or the spec's own badge text for active calls) describing the phone. Once a call is
 * over the badge says how it ended for a moment (`recentEnd`), then that the phone is ready again.
 */
export function badgeLabel(view: PhoneView, recentEnd: boolean): { text?: string; key?: string } {
  const { state, registered, endCause } = view.context;
  if (isActiveCallState(state)) return { text: CALL_BADGE_LABELS[state] };
  if (view.paused) return { key: 'paused' };
  if (view.account === 'none') return { key: 'notConfigured' };
  if (view.account === 'error') return { key: 'accountError' };
  if (view.account === 'loading') return { key: 'notConnected' };
  if ((state === 'CALL_ENDED' || state === 'CALL_FAILED') && recentEnd) return { key: endCause ?? 'failed' };
  if (state === 'CALL_FAILED_REGISTER_TO_SERVER') return { key: 'registerFailed' };
  if (state === 'CALL_OFFLINE') return { key: 'offline' };
  return { key: registered ? 'ready' : 'registering' };
}
