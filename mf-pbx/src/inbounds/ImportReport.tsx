import { MessageBar, MessageBarBody, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { ImportInboundResult } from '@tongdai/contracts';
import { INBOUNDS_NS } from './i18n';

const useStyles = makeStyles({ root: { display: 'flex', flexDirection: 'column', gap: '12px' }, table: { maxHeight: '320px', overflowY: 'auto' } });

/** What an import did: how many routes were added, and each refused row with its reason. */
export function ImportReport({ result }: { result: ImportInboundResult }) {
  const s = useStyles();
  const { t } = useTranslation(INBOUNDS_NS);
  return (
    <div className={s.root} data-testid="import-report">
      <MessageBar intent={result.refused.length ? 'warning' : 'success'}>
        <MessageBarBody data-testid="import-imported">{t('import.imported', { count: result.imported })}</MessageBarBody>
      </MessageBar>
      {result.refused.length === 0 ? <Text>{t('import.noneRefused')}</Text> : (
        <>
          <Text weight="semibold">{t('import.refused', { count: result.refused.length })}</Text>
          <div className={s.table}>
            <Table size="small" aria-label={t('import.refused', { count: result.refused.length })} data-testid="import-refused">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('import.row')}</TableHeaderCell>
                  <TableHeaderCell>{t('import.did')}</TableHeaderCell>
                  <TableHeaderCell>{t('import.reason')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {result.refused.map((r) => (
                  <TableRow key={`${r.row}-${r.message}`} data-testid="import-refused-row">
                    <TableCell>{String(r.row)}</TableCell>
                    <TableCell>{r.did || '—'}</TableCell>
                    <TableCell>{r.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
    </div>
  );
}
