import { memo, useEffect, useState, type ReactElement } from 'react';
import { Avatar, Button, Switch, Text, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { SettingsRegular, SignOutRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { logout } from '@tongdai/platform';
import { useDarkMode, useSession } from '@tongdai/platform/react';
import { NS } from '../i18n';
import { siteLogoSrc, useSiteInfo } from '../settings/settings.api';

/**
 * One line whatever the softphone shows (a call adds a dozen controls): nothing in the bar wraps
 * (nowrap makes each item's minimum width its one-line width); only the tenant name and the
 * user's name (min-width 0) give up width, ending in "…" with the full text as a title.
 */
const useStyles = makeStyles({
  bar: {
    height: '56px', display: 'flex', alignItems: 'center', gap: '16px', padding: '0 16px', whiteSpace: 'nowrap',
    background: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand,
  },
  brand: { fontWeight: 700, fontSize: '20px', marginRight: 'auto', display: 'flex', gap: '12px', alignItems: 'baseline', minWidth: 0 },
  tenant: { fontWeight: 400, fontSize: '14px', opacity: 0.9, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' },
  logo: { height: '32px', maxWidth: '120px', objectFit: 'contain', alignSelf: 'center', background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium, padding: '2px', flexShrink: 0 },
  // The tenant name gives up its width first; the user's name only a little of it.
  user: { display: 'flex', alignItems: 'center', gap: '8px', minWidth: 0, flexShrink: 0.2 },
  userName: { minWidth: 0, maxWidth: '180px' },
  onBrand: { color: tokens.colorNeutralForegroundOnBrand },
  // Fluent's Button hides its overflow, which lets a flex item shrink and cut its own label.
  fixed: { flexShrink: 0 },
});

/** Never re-renders the softphone slot: single-spa owns its DOM. */
const SOFTPHONE_SLOT = 'single-spa-application:mf_softphone';
const SoftphoneSlot = memo(() => <div id={SOFTPHONE_SLOT} />);

/** Wider than the idle phone (its state and four icons, ~250 px): a call's controls are shown. */
const IN_CALL_WIDTH = 320;

/**
 * Whether the softphone shows a call's controls (it grows past IN_CALL_WIDTH): then the bar's own
 * buttons keep their icons only (their names as tooltips), so the company and the user keep theirs
 * (at 1280 px a call had cut the company to "(" and the user to "Quản trị…").
 */
function useSoftphoneWide(): boolean {
  const [wide, setWide] = useState(false);
  useEffect(() => {
    const slot = document.getElementById(SOFTPHONE_SLOT);
    if (!slot || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWide(slot.getBoundingClientRect().width > IN_CALL_WIDTH));
    observer.observe(slot);
    return () => observer.disconnect();
  }, []);
  return wide;
}

export function TopBar() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const navigate = useNavigate();
  const session = useSession();
  const [dark, setDark] = useDarkMode();
  // The site name and logo of /setting/site replace the tenant name once they are known.
  const site = useSiteInfo();
  const logo = siteLogoSrc(site.data?.logo_url ?? null);
  const tenantName = site.data?.name ?? session.profile?.tenantName;
  // The session cleared, HostRoot's guard takes the page to /login (navigating here too made two
  // navigations to it, one interrupting whatever the page did next).
  const signOut = () => logout().catch(() => undefined);
  const compact = useSoftphoneWide();
  // In a call the bar's buttons are icons with their names as tooltips (and accessible names).
  const named = (label: string, button: ReactElement) => (compact ? <Tooltip content={label} relationship="label">{button}</Tooltip> : button);
  return (
    <header className={s.bar}>
      <span className={s.brand}>
        {logo && <img src={logo} alt={t('shell.siteLogo')} className={s.logo} data-testid="site-logo" />}
        {t('product')}
        <span className={s.tenant} data-testid="tenant-name" title={tenantName}>{tenantName}</span>
      </span>
      <SoftphoneSlot />
      <Switch
        className={s.fixed} checked={dark} onChange={(_, d) => setDark(d.checked)} data-testid="dark-mode"
        label={compact ? undefined : <span className={s.onBrand}>{t('shell.darkMode')}</span>}
        aria-label={compact ? t('shell.darkMode') : undefined} title={compact ? t('shell.darkMode') : undefined}
      />
      <span className={s.user}>
        <Avatar name={session.profile?.fullName} size={28} color="colorful" />
        <Text wrap={false} truncate className={mergeClasses(s.onBrand, s.userName)} data-testid="user-name" title={session.profile?.fullName}>{session.profile?.fullName}</Text>
      </span>
      {named(t('shell.settings'), <Button appearance="subtle" className={mergeClasses(s.onBrand, s.fixed)} icon={<SettingsRegular />} onClick={() => navigate('/setting')} data-testid="settings-link">
        {compact ? undefined : t('shell.settings')}
      </Button>)}
      {named(t('shell.logout'), <Button appearance="subtle" className={mergeClasses(s.onBrand, s.fixed)} icon={<SignOutRegular />} onClick={() => void signOut()} data-testid="logout">
        {compact ? undefined : t('shell.logout')}
      </Button>)}
    </header>
  );
}
