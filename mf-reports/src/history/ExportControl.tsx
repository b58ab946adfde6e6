import { useRef, useState } from 'react';
import { Button, ProgressBar, Select, Text } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { PERM, type Paged } from '@tongdai/contracts';
import { notify, tenantApi, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { NS } from '../i18n';
import { exportFile, filtersOnScreen, type ExportFormat } from './exportFile';

/**
 * The export of a history list (report.export only): CSV or XLSX of exactly the filtered rows,
 * read as a stream with a progress bar (rows received / the list's total) and a cancel button.
 */
export function ExportControl({ endpoint, file }: { endpoint: string; file: string }) {
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [progress, setProgress] = useState<{ rows: number; total: number | null } | null>(null);
  const abort = useRef<AbortController | null>(null);
  if (!can(PERM.report.export)) return null;

  const run = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ rows: 0, total: null });
    // The total is the list's meta.total for the same filters (one row asked for).
    void tenantApi()
      .get(endpoint, { searchParams: { ...filtersOnScreen(), per_page: '1' }, signal: controller.signal })
      .json<Paged<unknown>>()
      .then((r) => setProgress((p) => p && { ...p, total: r.meta.total }))
      .catch(() => undefined);
    try {
      await exportFile(endpoint, file, format, (rows) => setProgress((p) => p && { ...p, rows }), controller.signal);
      notify('success', t('export.done'));
    } catch (e) {
      if (controller.signal.aborted) notify('info', t('export.cancelled'));
      else notify('error', (await toApiError(e)).message);
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };

  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <Select aria-label={t('export.format')} value={format} onChange={(_, d) => setFormat(d.value as ExportFormat)} disabled={!!progress} data-testid="export-format">
        <option value="csv">CSV</option>
        <option value="xlsx">Excel (XLSX)</option>
      </Select>
      <Button onClick={() => void run()} disabled={!!progress} data-testid="export">{t('export.run')}</Button>
      {progress && (
        <span style={{ display: 'inline-flex', flexDirection: 'column', minWidth: 160 }}>
          <ProgressBar value={progress.total ? Math.min(1, progress.rows / progress.total) : undefined} data-testid="export-progress" />
          <Text size={200} data-testid="export-count">
            {t('export.rows', { rows: progress.rows.toLocaleString('vi-VN'), total: progress.total === null ? '…' : progress.total.toLocaleString('vi-VN') })}
          </Text>
        </span>
      )}
      {progress && <Button onClick={() => abort.current?.abort()} data-testid="export-cancel">{t('export.cancel')}</Button>}
    </span>
  );
}
