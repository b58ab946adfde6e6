import { useEffect, useState } from 'react';
import { Badge, Tooltip } from '@fluentui/react-components';
import { CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { isActiveCallState, type CallState } from '@tongdai/contracts';
import { callBus, platformInstanceId } from '@tongdai/platform';
import { useSession } from '@tongdai/platform/react';
import type { PhoneView } from './phone/controller';
import { badgeLabel } from './ui/label';
import { NS } from './i18n';

/** Who holds the call, for the tests and assistive tools: local, remote, both or ''. */
const holdOf = (hold: PhoneView['context']['hold']) => (!hold ? '' : hold.local && hold.remote ? 'both' : hold.local ? 'local' : 'remote');

/** How long "Cuộc gọi đã kết thúc" stays before the badge says the phone is ready again. */
const END_NOTICE_MS = 4000;

/**
 * The phone's state as a badge in the top bar. The state shown is the one on the shared call bus
 * (what every other remote sees); the label adds what only the phone knows (account, registration).
 */
export function PhoneStatus({ view }: { view: PhoneView }) {
  const { t } = useTranslation(NS);
  const s = useSession();
  const [state, setState] = useState<CallState>(view.context.state);
  useEffect(() => {
    const sub = callBus.calls$.subscribe((e) => setState(e.state));
    return () => sub.unsubscribe();
  }, []);
  const [recentEnd, setRecentEnd] = useState(false);
  useEffect(() => {
    if (state !== 'CALL_ENDED' && state !== 'CALL_FAILED') return;
    setRecentEnd(true);
    const id = setTimeout(() => setRecentEnd(false), END_NOTICE_MS);
    return () => clearTimeout(id);
  }, [state]);
  const active = isActiveCallState(state);
  const label = badgeLabel({ ...view, context: { ...view.context, state } }, recentEnd);
  const ready = view.context.registered && !active;
  const trouble = view.account === 'error' || state === 'CALL_FAILED_REGISTER_TO_SERVER';
  const ext = view.account === 'ready' ? view.extension : undefined;
  return (
    <Tooltip content={ext ? `${t('title')} · ${t('extension', { ext })}` : t('title')} relationship="description">
      <Badge
        appearance={active ? 'filled' : 'tint'}
        color={active || ready ? 'success' : trouble ? 'danger' : 'informative'}
        icon={<CallRegular />}
        size="large"
        data-testid="softphone"
        data-call-state={state}
        data-registered={String(view.context.registered)}
        data-media-state={view.mediaState ?? ''}
        data-hold={holdOf(view.context.hold)}
        data-platform-instance={platformInstanceId}
        data-bus-id={callBus.id}
        data-session-user={s.user?.name ?? ''}
      >
        {label.text ?? t(label.key ?? 'notConnected')}
      </Badge>
    </Tooltip>
  );
}
