import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPY_KEYS, SPY_LABELS, parseSpyNumber, type SpyMode } from '@tongdai/contracts';
import { NS } from '../i18n';

/**
 * A call to a spy code (issue 16) named for what it is: "Giám sát 102 · Nghe" rather than "*222102".
 * The mode follows the keys 4 / 5 / 6 pressed during the call (the media worker switches on them),
 * and starts again from the dialled code on the next call.
 */
export function useSpyCall(remoteNumber: string | undefined, active: boolean): { label: string | null; onKey: (key: string) => void } {
  const { t } = useTranslation(NS);
  const [switched, setSwitched] = useState<SpyMode | null>(null);
  useEffect(() => {
    if (!active) setSwitched(null);
  }, [active]);
  const spy = remoteNumber ? parseSpyNumber(remoteNumber) : null;
  return {
    label: spy && t('spyCall', { extension: spy.extension, mode: SPY_LABELS[switched ?? spy.mode] }),
    onKey: (key) => {
      if (spy && SPY_KEYS[key]) setSwitched(SPY_KEYS[key]);
    },
  };
}
