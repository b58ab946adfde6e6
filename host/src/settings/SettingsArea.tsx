import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { AUDIT_SETTING, GOOGLE_SHEET_SETTING, PERM } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { ErrorState } from '@tongdai/ui';
import { NS } from '../i18n';
import { PasswordScreen } from './PasswordScreen';
import { ProfileScreen } from './ProfileScreen';
import { GoogleSheetSettingsScreen } from './GoogleSheetSettingsScreen';
import { AuditLogScreen } from './audit/AuditLogScreen';
import { SettingsIndex } from './SettingsIndex';
import { SiteSettingsScreen } from './SiteSettingsScreen';
import { StatusScreen } from './StatusScreen';
import { SystemSettingsScreen } from './SystemSettingsScreen';

const TENANT: Record<string, () => ReactElement> = {
  site: SiteSettingsScreen, system: SystemSettingsScreen, [GOOGLE_SHEET_SETTING]: GoogleSheetSettingsScreen, [AUDIT_SETTING]: AuditLogScreen,
};
/** A tenant card opened by another permission than setting.view: the Google account is set by who edits campaigns; the audit log is audit.view's. */
const CARD_PERMISSION: Record<string, string> = { [GOOGLE_SHEET_SETTING]: PERM.campaign.edit, [AUDIT_SETTING]: PERM.audit.view };
const USER: Record<string, () => ReactElement> = { profile: ProfileScreen, password: PasswordScreen, status: StatusScreen };

/** One lazy chunk for every settings screen; the slug picks the screen. */
export default function SettingsArea() {
  const { t } = useTranslation(NS);
  const { pathname } = useLocation();
  const { can } = useCan();
  const [, area, slug] = pathname.split('/');
  if (area === 'setting' && !slug) return <SettingsIndex />;
  const Screen = area === 'setting' ? TENANT[slug] : USER[slug];
  if (!Screen) return <ErrorState testId="not-found" title={t('shell.notFound')} message={t('shell.notFoundHint')} />;
  // Tenant settings need setting.view to open (the API enforces setting.edit on saving).
  if (area === 'setting' && !can(CARD_PERMISSION[slug] ?? PERM.setting.view)) return <ErrorState testId="forbidden" message={t('settings.forbidden')} />;
  return <Screen />;
}
