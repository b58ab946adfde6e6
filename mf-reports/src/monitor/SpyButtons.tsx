import { useId, useRef, useState, type ReactElement } from 'react';
import { Button, Text, Tooltip } from '@fluentui/react-components';
import { Headphones16Regular, Info16Regular, PeopleAdd16Regular, PersonVoice16Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { PERM, SPY_CODES, SPY_HINTS, SPY_KEYS, SPY_LABELS, SPY_MODES, parseSpyNumber, spyNumber, type LiveCall, type SpyMode } from '@tongdai/contracts';
import { requestDial } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { usePhoneReady } from '@tongdai/ui';
import { NS } from '../i18n';
import { useMonitorStyles } from './styles';

const ICONS: Record<SpyMode, ReactElement> = { listen: <Headphones16Regular />, whisper: <PersonVoice16Regular />, barge: <PeopleAdd16Regular /> };

/** Whether the viewer may listen, whisper or barge (issue 16): the wall shows the buttons and the help only then. */
export const useCanSpy = (): boolean => useCan().can(PERM.monitor.spy);

/** A supervisor's own spy call (to *222102…) is on the wall too; it is not one to join. */
export const isSpyCall = (c: LiveCall): boolean => parseSpyNumber(c.callee) !== null;

/**
 * One of the buttons, its hint in a tooltip while it is hovered or focused. The Tooltip is mounted
 * only then, beside the button (positioned on it): a wall of 200 answered calls carries 1 200 of
 * these buttons, and a Tooltip each (its positioning hooks) was most of the wall's main thread
 * under load (issue 14's bench). The hint is the button's description all the time (aria-describedby).
 */
function SpyButton({ mode, extension, ready, hint }: { mode: SpyMode; extension: string; ready: boolean; hint: string }) {
  const s = useMonitorStyles();
  const ref = useRef<HTMLButtonElement>(null);
  const id = useId();
  const [shown, setShown] = useState(false);
  const show = () => setShown(true);
  const hide = () => setShown(false);
  return (
    <>
      <Button
        ref={ref} size="small" appearance="outline" icon={ICONS[mode]} disabledFocusable={!ready} data-testid={`spy-${mode}`} aria-describedby={id}
        onPointerEnter={show} onPointerLeave={hide} onFocus={show} onBlur={hide}
        onClick={() => ready && requestDial({ kind: 'number', number: spyNumber(mode, extension) })}
      >
        {SPY_LABELS[mode]}
      </Button>
      <span id={id} className={s.hidden}>{hint}</span>
      {shown && (
        <Tooltip content={hint} relationship="inaccessible" withArrow visible positioning={{ target: ref.current, position: 'above' }} onVisibleChange={(_, d) => setShown(d.visible)}>
          <span />
        </Tooltip>
      )}
    </>
  );
}

/**
 * Nghe / Nhắc / Tham gia on an agent's answered call: the persistent softphone dials the feature
 * code with the agent's extension (the API checks monitor.spy again). Disabled while the phone is
 * not registered or already in a call, so a second spy call is never attempted from the wall.
 */
export function SpyButtons({ extension }: { extension: string }) {
  const { t } = useTranslation(NS);
  const s = useMonitorStyles();
  const ready = usePhoneReady();
  const notReady = ready ? '' : t('monitor.spy.notReady');
  return (
    <span className={s.spy} role="group" aria-label={t('monitor.spy.group', { extension })} data-testid="spy-buttons" data-extension={extension}>
      {SPY_MODES.map((mode) => <SpyButton key={mode} mode={mode} extension={extension} ready={ready} hint={notReady || SPY_HINTS[mode]} />)}
    </span>
  );
}

/** The codes behind the buttons, for a desk phone or the dial pad, and the keys that switch mode during the call. */
export function SpyHelp() {
  const { t } = useTranslation(NS);
  const s = useMonitorStyles();
  const verb = (mode: SpyMode) => SPY_LABELS[mode].toLowerCase();
  const codes = SPY_MODES.map((m) => t('monitor.spy.code', { code: SPY_CODES[m], action: verb(m) })).join(', ');
  const keys = Object.entries(SPY_KEYS).map(([key, m]) => t('monitor.spy.key', { digit: key, action: verb(m) })).join(', ');
  return (
    <Text size={200} className={s.spyHelp} data-testid="spy-help">
      <Info16Regular aria-hidden />
      <span>{t('monitor.spy.help', { codes, keys })}</span>
    </Text>
  );
}
