import type { ReactElement } from 'react';
import { Body1, Card, CardHeader, Subtitle2, Title2, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { GlobeRegular, HistoryRegular, KeyRegular, PersonRegular, PresenceAvailableRegular, SettingsRegular, TableRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { AUDIT_SETTING, GOOGLE_SHEET_SETTING, PERM } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { AppLink } from '@tongdai/ui';
import { NS } from '../i18n';
import { settingPath, userSettingPath } from './paths';
import { ReleasesCard } from './ReleasesCard';
import { SubscriptionCard } from './SubscriptionCard';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '20px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: '16px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

interface Entry { slug: string; to: string; icon: ReactElement }

function EntryCard({ e }: { e: Entry }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  return (
    <Card data-testid={`setting-card-${e.slug}`}>
      <CardHeader image={e.icon} header={<Subtitle2>{t(`settings.cards.${e.slug}.title`)}</Subtitle2>} />
      <Body1 className={s.muted}>{t(`settings.cards.${e.slug}.hint`)}</Body1>
      <AppLink to={e.to} testId={`open-${e.slug}`}>{t('settings.open')}</AppLink>
    </Card>
  );
}

/** /setting: the tenant's settings (setting.view), the user's own, and the subscription. */
export function SettingsIndex() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const tenant: Entry[] = [
    { slug: 'site', to: settingPath('site'), icon: <GlobeRegular /> },
    { slug: 'system', to: settingPath('system'), icon: <SettingsRegular /> },
  ].filter(() => can(PERM.setting.view));
  // The Google Sheet source's account: for who edits campaigns (with the survey or marketing feature's screens).
  if (can(PERM.campaign.edit)) tenant.push({ slug: GOOGLE_SHEET_SETTING, to: settingPath(GOOGLE_SHEET_SETTING), icon: <TableRegular /> });
  // Who changed what (issue 42): for who holds audit.view.
  if (can(PERM.audit.view)) tenant.push({ slug: AUDIT_SETTING, to: settingPath(AUDIT_SETTING), icon: <HistoryRegular /> });
  const user: Entry[] = [
    { slug: 'profile', to: userSettingPath('profile'), icon: <PersonRegular /> },
    { slug: 'password', to: userSettingPath('password'), icon: <KeyRegular /> },
    { slug: 'status', to: userSettingPath('status'), icon: <PresenceAvailableRegular /> },
  ];
  return (
    <section className={s.page} data-testid="settings-index">
      <Title2 as="h1">{t('settings.title')}</Title2>
      {tenant.length > 0 && (
        <>
          <Title3 as="h2">{t('settings.groups.tenant')}</Title3>
          <div className={s.grid}>{tenant.map((e) => <EntryCard key={e.slug} e={e} />)}</div>
        </>
      )}
      <Title3 as="h2">{t('settings.groups.user')}</Title3>
      <div className={s.grid}>{user.map((e) => <EntryCard key={e.slug} e={e} />)}</div>
      <SubscriptionCard />
      <ReleasesCard />
    </section>
  );
}
