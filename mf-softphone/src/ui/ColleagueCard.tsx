import { Button, Card, CardHeader, Text } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { DirectoryEntry } from '@tongdai/contracts';
import { NS } from '../i18n';
import { useSoftphoneStyles } from './styles';

/** In place of the customer card when the other side is one of the tenant's extensions. */
export function ColleagueCard({ colleague, onClose }: { colleague: DirectoryEntry; onClose: () => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  return (
    <Card className={s.card} role="region" aria-label={t('colleagueTitle')} data-testid="softphone-colleague">
      <CardHeader
        header={<Text weight="semibold">{t('colleagueTitle')}</Text>}
        description={<Text data-testid="softphone-colleague-extension">{t('extension', { ext: colleague.extension })}</Text>}
        action={<Button appearance="subtle" icon={<DismissRegular />} aria-label={t('close')} onClick={onClose} data-testid="softphone-customer-close" />}
      />
      {colleague.display_name && <Text weight="semibold" size={500} data-testid="softphone-colleague-name">{colleague.display_name}</Text>}
    </Card>
  );
}
