import { Body1, Card, CardHeader, Subtitle2, Text, Title2, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@tongdai/ui';
import { FEATURES, PERM, routes, type Paged } from '@tongdai/contracts';
import { canAccess, platformInstanceId, tenantApi, callBus } from '@tongdai/platform';
import { useSession } from '@tongdai/platform/react';
import { NS } from '../i18n';
import { useUserInfo } from '../settings/settings.api';
import { remotes$ } from './remotes';
import { useBehavior } from './useObservable';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '20px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: '16px' },
  stat: { fontSize: '36px', fontWeight: 700, color: tokens.colorBrandForeground1 },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function Dashboard() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const session = useSession();
  const remotes = useBehavior(remotes$);
  // The role as screens name it (its display name), not the code kept in the session.
  const userInfo = useUserInfo();
  const customersAllowed = canAccess({ permission: PERM.customer.view, feature: FEATURES.customer });
  const customers = useQuery({
    queryKey: ['customers', 'total'],
    queryFn: () => tenantApi().get('customers', { searchParams: { per_page: 1 } }).json<Paged<unknown>>(),
    enabled: customersAllowed,
  });
  const entries = remotes.flatMap((r) => (r.status === 'ready' ? r.manifest.nav.filter(canAccess) : []));
  return (
    <section className={s.page} data-testid="dashboard" data-platform-instance={platformInstanceId} data-bus-id={callBus.id}>
      <div>
        <Title2 as="h1" block>{t('dashboard.hello', { name: session.profile?.fullName })}</Title2>
        <Body1 as="p" block className={s.muted}>
          {t('dashboard.tenant', { name: session.profile?.tenantName, code: session.maDn })} · {t('dashboard.role', { role: userInfo.data?.role_label ?? '…' })}
        </Body1>
      </div>
      <div className={s.grid}>
        {customersAllowed && (
          <Card>
            <CardHeader header={<Subtitle2>{t('dashboard.customersTotal')}</Subtitle2>} />
            <Text className={s.stat} data-testid="customers-total">{customers.data?.meta.total ?? '—'}</Text>
            <AppLink to={routes.customer.list()}>{t('dashboard.open')}</AppLink>
          </Card>
        )}
      </div>
      {entries.length > 0 && <Title3 as="h2" block>{t('dashboard.areas')}</Title3>}
      <div className={s.grid}>
        {entries.map((e) => (
          <Card key={e.path}>
            <CardHeader header={<Subtitle2>{e.label}</Subtitle2>} />
            <AppLink to={e.path}>{t('dashboard.open')}</AppLink>
          </Card>
        ))}
      </div>
    </section>
  );
}
