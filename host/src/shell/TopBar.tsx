import { memo } from 'react';
import { Avatar, Button, Switch, Text, makeStyles, tokens } from '@fluentui/react-components';
import { SettingsRegular, SignOutRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { routes } from '@tongdai/contracts';
import { logout } from '@tongdai/platform';
import { useDarkMode, useSession } from '@tongdai/platform/react';
import { NS } from '../i18n';
import { siteLogoSrc, useSiteInfo } from '../settings/settings.api';

const useStyles = makeStyles({
  bar: { height: '56px', display: 'flex', alignItems: 'center', gap: '16px', padding: '0 16px', background: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand },
  brand: { fontWeight: 700, fontSize: '20px', marginRight: 'auto', display: 'flex', gap: '12px', alignItems: 'baseline' },
  tenant: { fontWeight: 400, fontSize: '14px', opacity: 0.9 },
  logo: { height: '32px', maxWidth: '120px', objectFit: 'contain', alignSelf: 'center', background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium, padding: '2px' },
  user: { display: 'flex', alignItems: 'center', gap: '8px' },
  onBrand: { color: tokens.colorNeutralForegroundOnBrand },
});

/** Never re-renders the softphone slot: single-spa owns its DOM. */
const SoftphoneSlot = memo(() => <div id="single-spa-application:mf_softphone" />);

export function TopBar() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const navigate = useNavigate();
  const session = useSession();
  const [dark, setDark] = useDarkMode();
  // The site name and logo of /setting/site replace the tenant name once they are known.
  const site = useSiteInfo();
  const logo = siteLogoSrc(site.data?.logo_url ?? null);
  const signOut = async () => {
    await logout().catch(() => undefined);
    navigate(routes.login(), { replace: true });
  };
  return (
    <header className={s.bar}>
      <span className={s.brand}>
        {logo && <img src={logo} alt={t('shell.siteLogo')} className={s.logo} data-testid="site-logo" />}
        {t('product')}
        <span className={s.tenant} data-testid="tenant-name">{site.data?.name ?? session.profile?.tenantName}</span>
      </span>
      <SoftphoneSlot />
      <Switch
        checked={dark} onChange={(_, d) => setDark(d.checked)} data-testid="dark-mode"
        label={<span className={s.onBrand}>{t('shell.darkMode')}</span>}
      />
      <span className={s.user}>
        <Avatar name={session.profile?.fullName} size={28} color="colorful" />
        <Text className={s.onBrand} data-testid="user-name">{session.profile?.fullName}</Text>
      </span>
      <Button appearance="subtle" className={s.onBrand} icon={<SettingsRegular />} onClick={() => navigate('/setting')} data-testid="settings-link">
        {t('shell.settings')}
      </Button>
      <Button appearance="subtle" className={s.onBrand} icon={<SignOutRegular />} onClick={() => void signOut()} data-testid="logout">
        {t('shell.logout')}
      </Button>
    </header>
  );
}
