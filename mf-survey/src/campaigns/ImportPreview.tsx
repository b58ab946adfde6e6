import { Checkbox, MessageBar, MessageBarBody, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { displayForm, type ContactImportResult } from '@tongdai/contracts';
import { NS } from '../i18n';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '8px' },
  scroll: { maxHeight: '200px', overflowY: 'auto', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  error: { color: tokens.colorPaletteRedForeground1 },
  fields: { color: tokens.colorNeutralForeground2 },
});

/**
 * What an import would add, before anything is saved: the counts, the first contacts as they will be
 * stored, every refused row with its reason, and the "bỏ qua dòng lỗi" choice when rows are refused.
 */
export function ImportPreview({ result, skip, onSkip }: { result: ContactImportResult; skip: boolean; onSkip: (skip: boolean) => void }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const invalid = result.rows - result.valid;
  return (
    <div className={s.root} data-testid="import-preview">
      <Text weight="semibold" data-testid="import-summary">{t('contacts.summary', { rows: result.rows, valid: result.valid, invalid })}</Text>
      {result.sample.length > 0 && (
        <div className={s.scroll}>
          <Table size="small" aria-label={t('contacts.sampleTitle')}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('contacts.name')}</TableHeaderCell>
                <TableHeaderCell>{t('contacts.phone')}</TableHeaderCell>
                <TableHeaderCell>{t('contacts.fields')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {result.sample.map((r) => (
                <TableRow key={r.number} data-testid="sample-row">
                  <TableCell>{r.name || '—'}</TableCell>
                  <TableCell>{displayForm(r.number)}</TableCell>
                  <TableCell className={s.fields}>{Object.entries(r.fields).map(([k, v]) => `${k}: ${v}`).join(' · ') || '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {result.errors.length > 0 && (
        <>
          <MessageBar intent="warning">
            <MessageBarBody>{t(skip ? 'contacts.willSkip' : 'contacts.nothingUnlessSkip', { invalid })}</MessageBarBody>
          </MessageBar>
          <div className={s.scroll}>
            <Table size="small" aria-label={t('contacts.errorsTitle')}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: '64px' }}>{t('contacts.row')}</TableHeaderCell>
                  <TableHeaderCell>{t('contacts.name')}</TableHeaderCell>
                  <TableHeaderCell>{t('contacts.phone')}</TableHeaderCell>
                  <TableHeaderCell>{t('contacts.error')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {result.errors.map((e) => (
                  <TableRow key={e.row} data-testid="error-row">
                    <TableCell>{e.row}</TableCell>
                    <TableCell>{e.name || '—'}</TableCell>
                    <TableCell>{e.phone || '—'}</TableCell>
                    <TableCell className={s.error}>{e.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <Checkbox checked={skip} onChange={(_, d) => onSkip(!!d.checked)} label={t('contacts.skipInvalid')} data-testid="skip-invalid" />
        </>
      )}
    </div>
  );
}
