import { useEffect, useState } from 'react';
import { Badge, Tooltip } from '@fluentui/react-components';
import { CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { CALL_BADGE_LABELS, INITIAL_CALL_STATE, isActiveCallState, type CallState } from '@tongdai/contracts';
import { callBus, platformInstanceId } from '@tongdai/platform';
import { useSession } from '@tongdai/platform/react';
import { NS } from './i18n';

const IDLE_LABEL: Partial<Record<CallState, string>> = {
  CALL_NOT_CREATED: 'notConnected',
  CALL_OFFLINE: 'offline',
  CALL_FAILED_REGISTER_TO_SERVER: 'registerFailed',
  CALL_ENDED: 'ended',
  CALL_FAILED: 'failed',
};

/** The phone's state as a badge in the top bar; follows the shared call-event bus. */
export function PhoneStatus() {
  const { t } = useTranslation(NS);
  const s = useSession();
  const [state, setState] = useState<CallState>(INITIAL_CALL_STATE);
  useEffect(() => {
    const sub = callBus.calls$.subscribe((e) => setState(e.state));
    return () => sub.unsubscribe();
  }, []);
  const active = isActiveCallState(state);
  const label = active ? CALL_BADGE_LABELS[state] : t(IDLE_LABEL[state] ?? 'notConnected');
  return (
    <Tooltip content={t('title')} relationship="description">
      <Badge
        appearance={active ? 'filled' : 'tint'}
        color={active ? 'success' : 'informative'}
        icon={<CallRegular />}
        size="large"
        data-testid="softphone"
        data-call-state={state}
        data-platform-instance={platformInstanceId}
        data-bus-id={callBus.id}
        data-session-user={s.user?.name ?? ''}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
