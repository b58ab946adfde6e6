import { Badge, Body1, Card, CardHeader, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { FEATURE_LABELS, isExpired, type FeatureName } from '@tongdai/contracts';
import { formatViDate, LoadingState } from '@tongdai/ui';
import { NS } from '../i18n';
import { usePaymentCheck } from './settings.api';

const useStyles = makeStyles({
  list: { margin: 0, padding: 0, listStyle: 'none', display: 'grid', gap: '6px', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' },
  item: { display: 'flex', gap: '8px', alignItems: 'center' },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  head: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
});


/** The payment check: what the tenant bought and until when (SPEC §3). */
export function SubscriptionCard() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const payment = usePaymentCheck();
  if (!payment.data) return payment.isLoading ? <LoadingState /> : null;
  const { feature_name_data: features, date_expired: expiry } = payment.data;
  const expired = isExpired(expiry, new Date());
  return (
    <Card data-testid="subscription">
      <CardHeader header={<Subtitle2>{t('settings.subscription.title')}</Subtitle2>} />
      <div className={s.head}>
        <Body1 data-testid="subscription-expiry">
          {expiry ? t(expired ? 'settings.subscription.expired' : 'settings.subscription.expires', { date: formatViDate(expiry) }) : t('settings.subscription.noExpiry')}
        </Body1>
        {expired && <Badge color="danger">{t('settings.subscription.expiredBadge')}</Badge>}
      </div>
      <Body1 as="p">{features.length ? t('settings.subscription.features') : t('settings.subscription.none')}</Body1>
      <ul className={s.list}>
        {features.map((f) => (
          <li key={f} className={s.item} data-testid={`feature-${f}`}>
            <CheckmarkCircleRegular className={s.ok} />
            {FEATURE_LABELS[f as FeatureName] ?? f}
          </li>
        ))}
      </ul>
    </Card>
  );
}
