import { useState } from 'react';
import {
  Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, MessageBar, MessageBarBody, Select, Spinner, makeStyles,
} from '@fluentui/react-components';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DNC_API, DNC_SOURCE_LABELS, type DncImportResult, type DncSource, type DncSummary, type One } from '@tongdai/contracts';
import { notify, tenantApi, toApiError } from '@tongdai/platform';
import { FileInput } from '@tongdai/ui';
import { NS } from '../i18n';
import { DNC_SCOPE } from './dnc.entity';

// minWidth 0 and wrapping: a long hint or a refused row wraps in the dialog instead of running past its edge.
const useStyles = makeStyles({
  body: { display: 'grid', gap: '12px', minWidth: 0, gridTemplateColumns: 'minmax(0, 1fr)' },
  errors: { maxHeight: '240px', overflowY: 'auto', margin: 0, paddingLeft: '20px', overflowWrap: 'anywhere' },
});

/** The two lists' sizes above the list (refreshed with it). */
export function DncCounts() {
  const { t } = useTranslation(NS);
  const counts = useQuery({
    queryKey: [DNC_SCOPE, 'summary'],
    queryFn: () => tenantApi().get(DNC_API.summary).json<One<DncSummary>>().then((r) => r.data),
  });
  if (!counts.data) return null;
  const n = (x: number) => x.toLocaleString('vi-VN');
  return <span data-testid="dnc-counts">{t('dnc.counts', { tenant: n(counts.data.tenant), national: n(counts.data.national) })}</span>;
}

/** "Nhập tệp": a CSV/XLSX/text file of numbers into one list; the counts and the refused rows as the API answers them. */
export function DncImportButton() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState<DncSource>('national');
  const [replace, setReplace] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<DncImportResult | null>(null);
  const run = useMutation({
    mutationFn: () => {
      const body = new FormData();
      body.append('source', source);
      body.append('replace', String(replace));
      body.append('file', file!);
      return tenantApi().post(DNC_API.file, { body, timeout: 300_000 }).json<One<DncImportResult>>().then((r) => r.data);
    },
    onSuccess: (r) => {
      setResult(r);
      setError(null);
      notify('success', t('dnc.result', { ...r }));
      void qc.invalidateQueries({ queryKey: [DNC_SCOPE] });
    },
    onError: async (e) => {
      const body = await toApiError(e);
      setError(body.details?.[0]?.message ?? body.message);
    },
  });
  const close = () => {
    setOpen(false);
    setFile(null);
    setResult(null);
    setError(null);
  };
  return (
    <>
      <Button appearance="secondary" onClick={() => setOpen(true)} data-testid="dnc-import">{t('dnc.import')}</Button>
      <Dialog open={open} onOpenChange={(_, d) => (d.open ? setOpen(true) : close())}>
        <DialogSurface data-testid="dnc-import-dialog">
          <DialogBody>
            <DialogTitle>{t('dnc.importTitle')}</DialogTitle>
            <DialogContent className={s.body}>
              <MessageBar intent="info" layout="multiline"><MessageBarBody>{t('dnc.importHint')}</MessageBarBody></MessageBar>
              <Field label={t('dnc.fields.source')}>
                <Select value={source} onChange={(_, d) => setSource(d.value as DncSource)} data-testid="field-import-source">
                  {Object.entries(DNC_SOURCE_LABELS).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
                </Select>
              </Field>
              <Field label={t('dnc.file')}>
                <FileInput accept=".csv,.xlsx,.txt,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" testId="dnc-file" label={t('dnc.file')}
                  onChange={(f) => { setFile(f); setResult(null); setError(null); }} />
              </Field>
              <Checkbox checked={replace} onChange={(_, d) => setReplace(d.checked === true)} label={t('dnc.replace')} data-testid="dnc-replace" />
              {error && <MessageBar intent="error" layout="multiline"><MessageBarBody data-testid="dnc-import-error">{error}</MessageBarBody></MessageBar>}
              {result && (
                <>
                  <MessageBar intent={result.invalid ? 'warning' : 'success'} layout="multiline"><MessageBarBody data-testid="dnc-import-result">{t('dnc.result', { ...result })}</MessageBarBody></MessageBar>
                  {result.errors.length > 0 && (
                    <ul className={s.errors}>
                      {result.errors.map((e) => <li key={e.row} data-testid="dnc-error-row">{t('dnc.row', { ...e })}</li>)}
                    </ul>
                  )}
                </>
              )}
            </DialogContent>
            <DialogActions>
              <Button onClick={close}>{t('dnc.close')}</Button>
              <Button appearance="primary" disabled={!file || run.isPending} onClick={() => run.mutate()} data-testid="dnc-import-run"
                icon={run.isPending ? <Spinner size="tiny" /> : undefined}>{t('dnc.run')}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
