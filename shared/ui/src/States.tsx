import type { ReactNode } from 'react';
import { Button, Card, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { UI_NS } from './i18n';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '12px', padding: '32px 16px', textAlign: 'center' },
  error: { borderLeft: `4px solid ${tokens.colorPaletteRedBorder2}` },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** A Vietnamese error card with an optional retry. */
export function ErrorState({ title, message, onRetry, testId = 'error-state' }: { title?: string; message: string; onRetry?: () => void; testId?: string }) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  return (
    <Card className={s.error} data-testid={testId} role="alert">
      <div className={s.box}>
        {title && <Text weight="semibold" size={500}>{title}</Text>}
        <Text>{message}</Text>
        {onRetry && <Button appearance="primary" onClick={onRetry} data-testid="retry">{t('retry')}</Button>}
      </div>
    </Card>
  );
}

export function EmptyState({ message, action }: { message: string; action?: ReactNode }) {
  const s = useStyles();
  return (
    <div className={s.box} data-testid="empty-state">
      <Text className={s.muted}>{message}</Text>
      {action}
    </div>
  );
}

export function LoadingState() {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  return <div className={s.box}><Spinner label={t('loading')} /></div>;
}
