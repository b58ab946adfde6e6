import { useEffect, useState, useSyncExternalStore } from 'react';
import { Field, makeStyles, mergeClasses, Select } from '@fluentui/react-components';
import { HeadsetRegular } from '@fluentui/react-icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NS } from '../i18n';
import { canChooseSpeaker, deviceChoice, listAudioDevices } from '../phone/devices';
import { BarPopover } from './BarPopover';
import { useSoftphoneStyles } from './styles';

/** Device names are longer than a dial pad is wide. */
const useStyles = makeStyles({ panel: { width: '300px' } });

const useChoice = () => useSyncExternalStore(
  (cb) => { const s = deviceChoice.value$.subscribe(cb); return () => s.unsubscribe(); },
  deviceChoice.get,
);

/** One device list: "Mặc định của hệ thống", then each device by name (or "Micro 2" before the names are known). */
function DeviceSelect({ label, devices, fallback, value, onChange, disabledHint, testId }: {
  label: string; devices?: MediaDeviceInfo[]; fallback: (n: number) => string; value?: string; onChange: (id: string) => void; disabledHint?: string; testId: string;
}) {
  const { t } = useTranslation(NS);
  // The browser's own "default" entry is what the first option already means.
  const listed = (devices ?? []).filter((d) => d.deviceId && d.deviceId !== 'default');
  return (
    <Field label={label} hint={disabledHint}>
      <Select value={value ?? ''} onChange={(_, d) => onChange(d.value)} disabled={!!disabledHint} data-testid={testId}>
        <option value="">{t('deviceDefault')}</option>
        {listed.map((d, i) => <option key={d.deviceId} value={d.deviceId}>{d.label || fallback(i + 1)}</option>)}
        {value && !listed.some((d) => d.deviceId === value) && <option value={value}>{devices ? t('deviceMissing') : '…'}</option>}
      </Select>
    </Field>
  );
}

/** Microphone and speaker of the softphone, chosen in the top bar and kept in this browser. */
export function DeviceSettings() {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const own = useStyles();
  const [open, setOpen] = useState(false);
  const choice = useChoice();
  const devices = useQuery({ queryKey: ['softphone', 'devices'], queryFn: listAudioDevices, enabled: open, staleTime: 0, retry: false });
  // A headset plugged in while the panel is open shows up at once.
  useEffect(() => {
    const media = globalThis.navigator?.mediaDevices;
    if (!open || !media?.addEventListener) return;
    const again = () => void devices.refetch();
    media.addEventListener('devicechange', again);
    return () => media.removeEventListener('devicechange', again);
  }, [open, devices]);
  return (
    <BarPopover label={t('devices')} icon={<HeadsetRegular />} testId="softphone-devices-toggle" open={open} onOpenChange={setOpen}>
      <div className={mergeClasses(s.surface, own.panel)} data-testid="softphone-devices">
        <DeviceSelect
          label={t('microphone')} devices={devices.data?.inputs} fallback={(n) => t('microphoneN', { n })}
          value={choice.input} onChange={(id) => deviceChoice.set('input', id)} testId="softphone-microphone"
        />
        <DeviceSelect
          label={t('speaker')} devices={devices.data?.outputs} fallback={(n) => t('speakerN', { n })}
          value={choice.output} onChange={(id) => deviceChoice.set('output', id)} testId="softphone-speaker"
          disabledHint={canChooseSpeaker() ? undefined : t('speakerUnsupported')}
        />
      </div>
    </BarPopover>
  );
}
