import { useSyncExternalStore } from 'react';
import { Button, Tooltip } from '@fluentui/react-components';
import { CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { dialBus, requestDial, type DialRequest } from '@tongdai/platform';
import { UI_NS } from './i18n';

const subscribe = (cb: () => void) => {
  const sub = dialBus.ready$.subscribe(cb);
  return () => sub.unsubscribe();
};
const getReady = () => dialBus.ready;

/** Whether the persistent softphone can dial now (registered, no call in progress). */
export const usePhoneReady = (): boolean => useSyncExternalStore(subscribe, getReady);

/**
 * Click-to-call (issue 15): asks the persistent softphone to dial. `display` is the number as the
 * screen shows it (masked or not); the request names what to dial (a customer or a call record
 * when the screen may not hold the number). Disabled, with the reason as its tooltip, while the
 * phone is not registered or busy.
 */
export function CallButton({ request, display }: { request: DialRequest; display: string }) {
  const { t } = useTranslation(UI_NS);
  const ready = usePhoneReady();
  const label = ready ? t('callNumber', { number: display }) : t('phoneNotReady');
  return (
    <Tooltip content={label} relationship="label">
      <Button
        size="small" appearance="subtle" icon={<CallRegular />} disabledFocusable={!ready}
        onClick={() => ready && requestDial(request)} data-testid="call-button" data-ready={String(ready)}
      />
    </Tooltip>
  );
}
