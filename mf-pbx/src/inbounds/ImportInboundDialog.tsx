import { useState } from 'react';
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Link as FluentLink, MessageBar, MessageBarBody, Text, makeStyles,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowUploadRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { DESTINATION_VALUES, IMPORT_INBOUND_COLUMNS, IMPORT_MAX_ROWS, PERM, type ImportInboundResult } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { FileInput, useFormSubmit } from '@tongdai/ui';
import { useImportInbound } from '../shared/pbx.api';
import { INBOUNDS_NS } from './i18n';
import { IMPORT_ACCEPT, INBOUND_TEMPLATE_NAME, checkImportFile, downloadText, inboundTemplateCsv } from './importFile';
import { ImportReport } from './ImportReport';

const useStyles = makeStyles({ body: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/** The "Nhập từ tệp" button of the inbound list and its dialog: file → POST /importInbound → report. */
export function ImportInboundButton() {
  const { t } = useTranslation(INBOUNDS_NS);
  const { can } = useCan();
  const [open, setOpen] = useState(false);
  if (!can(PERM.inbound.create)) return null;
  return (
    <>
      <Button icon={<ArrowUploadRegular />} onClick={() => setOpen(true)} data-testid="import-open">{t('import.button')}</Button>
      {open && <ImportInboundDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function ImportInboundDialog({ onClose }: { onClose: () => void }) {
  const s = useStyles();
  const { t } = useTranslation(INBOUNDS_NS);
  const run = useImportInbound();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportInboundResult | null>(null);
  // The file is checked here first (type, size); the API's refusal of it lands under the same field.
  const { submit, formError, reset } = useFormSubmit(
    {
      validate: () => {
        const problem = checkImportFile(file);
        setFileError(problem);
        return problem ? null : file;
      },
      setErrors: (errors) => { if (errors.file) setFileError(errors.file); },
    },
    async (f: File) => setResult(await run.mutateAsync(f)),
    // The report itself says what was imported: no toast.
    () => null,
  );
  const again = () => { setResult(null); setFile(null); setFileError(null); };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="import-dialog">
        <form onSubmit={(e) => { e.preventDefault(); void submit(); }} noValidate>
          <DialogBody>
            <DialogTitle>{t('import.title')}</DialogTitle>
            <DialogContent className={s.body}>
              {formError && <MessageBar intent="error" data-testid="form-error"><MessageBarBody>{formError}</MessageBarBody></MessageBar>}
              {result ? <ImportReport result={result} /> : (
                <>
                  <Text>{t('import.columns', { columns: IMPORT_INBOUND_COLUMNS.join(', '), types: DESTINATION_VALUES.join(', '), max: IMPORT_MAX_ROWS })}</Text>
                  <div>
                    <FluentLink as="button" type="button" onClick={() => downloadText(INBOUND_TEMPLATE_NAME, inboundTemplateCsv())} data-testid="import-template">
                      <ArrowDownloadRegular /> {t('import.template')}
                    </FluentLink>
                  </div>
                  <Field label={t('import.file')} required validationMessage={fileError} validationState={fileError ? 'error' : 'none'}>
                    <FileInput accept={IMPORT_ACCEPT} label={t('import.file')} testId="import-file"
                      onChange={(f) => { setFile(f); setFileError(null); reset(); }} />
                  </Field>
                </>
              )}
            </DialogContent>
            <DialogActions>
              {result ? (
                <>
                  <Button type="button" onClick={again} data-testid="import-again">{t('import.another')}</Button>
                  <Button appearance="primary" type="button" onClick={onClose} data-testid="import-close">{t('import.close')}</Button>
                </>
              ) : (
                <>
                  <Button type="button" onClick={onClose}>{t('cancel', { ns: 'ui' })}</Button>
                  <Button appearance="primary" type="submit" disabled={run.isPending} data-testid="import-submit">{t('import.submit')}</Button>
                </>
              )}
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
