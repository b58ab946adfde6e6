import { useEffect, useState } from 'react';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { ACTIVE_CALL_STATES } from '@tongdai/contracts';
import { callBus } from '@tongdai/platform';
import { NS } from '../i18n';
import { updates$, watchUpdates } from './updates';
import { useBehavior } from './useObservable';

const useStyles = makeStyles({ bar: { marginBottom: '16px' } });

/**
 * "Có phiên bản mới…" (ADR 0053): a release of an area was promoted (or rolled back) since this page
 * started. It runs at the next load; nothing reloads by itself, least of all during a call, which the
 * bar says while one is in progress.
 */
export function UpdateBanner() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const changed = useBehavior(updates$);
  const [inCall, setInCall] = useState(false);
  useEffect(() => watchUpdates(), []);
  useEffect(() => {
    const sub = callBus.calls$.subscribe((e) => setInCall(ACTIVE_CALL_STATES.includes(e.state)));
    return () => sub.unsubscribe();
  }, []);
  if (!changed.length) return null;
  const areas = changed.map((id) => `"${t(`remotes.${id}`, { defaultValue: id })}"`).join(', ');
  return (
    <MessageBar intent="info" layout="multiline" className={s.bar} data-testid="update-available">
      <MessageBarBody>
        <MessageBarTitle>{t('shell.update.title')}</MessageBarTitle>
        {t(inCall ? 'shell.update.inCall' : 'shell.update.body', { areas })}
      </MessageBarBody>
      <MessageBarActions>
        <Button appearance="primary" disabled={inCall} onClick={() => window.location.reload()} data-testid="update-reload">{t('shell.update.reload')}</Button>
      </MessageBarActions>
    </MessageBar>
  );
}
