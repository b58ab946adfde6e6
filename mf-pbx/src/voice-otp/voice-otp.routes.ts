import { FEATURES, PERM, screens } from '@tongdai/contracts';
import { i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { OTP_NS } from './i18n';

const feature = FEATURES.voiceOtp;
const screen = (name: 'OtpList' | 'OtpNumber') => () => import('./screens').then((m) => ({ default: m[name] }));

/** /voice-otp/list and /voice-otp/number (SPEC §2, issue 35), behind the purchased voiceotp feature. */
export const voiceOtpRoutes: RouteDef[] = [
  { path: screens.voiceOtpList, loader: screen('OtpList'), permission: PERM.otp.view, feature },
  { path: screens.voiceOtpNumber, loader: screen('OtpNumber'), permission: PERM.otp.view, feature },
];

export const voiceOtpNav = (): NavEntry[] => {
  const t = (key: string) => i18n.t(key, { ns: OTP_NS });
  const group = t('group');
  return [
    { label: t('request.nav'), path: screens.voiceOtpList, icon: 'shield', permission: PERM.otp.view, feature, group },
    { label: t('numbers.nav'), path: screens.voiceOtpNumber, icon: 'dialpad', permission: PERM.otp.view, feature, group },
  ];
};
