import { Suspense, lazy, useState } from 'react';
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Text, makeStyles, tokens,
} from '@fluentui/react-components';
import { CONTACT_RESULTS, CONTACT_RESULT_LABELS, DECREE91_MESSAGES, DECREE91_REFUSALS, PERM, type Campaign, type CampaignFamily, type CampaignResults } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { ErrorState, LoadingState } from '@tongdai/ui';
import { downloadResults, useCampaignResults } from './campaign.api';
import { ContactCalls } from './ContactCalls';

const ResultsCharts = lazy(() => import('./ResultsCharts'));

const useStyles = makeStyles({
  surface: { maxWidth: '1100px', width: '94vw' },
  body: { display: 'flex', flexDirection: 'column', gap: '16px' },
  figures: { display: 'flex', flexWrap: 'wrap', gap: '8px 24px' },
  figure: { display: 'flex', flexDirection: 'column' },
  value: { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700, fontWeight: tokens.fontWeightSemibold },
  refusals: { margin: 0, paddingLeft: '20px' },
});

const Figure = ({ label, value, id }: { label: string; value: number; id: string }) => {
  const s = useStyles();
  return (
    <div className={s.figure} data-testid={`figure-${id}`}>
      <span className={s.value}>{value.toLocaleString('vi-VN')}</span>
      <Text size={200}>{label}</Text>
    </div>
  );
};

/** What the results show besides the charts: contacts, attempts, results, refusals per Decree 91 reason. */
function Summary({ results }: { results: CampaignResults }) {
  const s = useStyles();
  const { progress, attempts } = results;
  const refusals = DECREE91_REFUSALS.filter((r) => attempts.refusals[r]);
  return (
    <>
      <div className={s.figures}>
        <Figure id="done" label={`Liên hệ đã xong / ${progress.total.toLocaleString('vi-VN')}`} value={progress.done} />
        <Figure id="attempts" label="Lượt gọi" value={attempts.total} />
        {CONTACT_RESULTS.filter((r) => progress.by_result[r]).map((r) => <Figure key={r} id={r} label={CONTACT_RESULT_LABELS[r]} value={progress.by_result[r]!} />)}
        <Figure id="refused" label="Bị chặn (Nghị định 91)" value={attempts.refused} />
      </div>
      {refusals.length > 0 && (
        <ul className={s.refusals} data-testid="refusals">
          {refusals.map((r) => <li key={r}>{DECREE91_MESSAGES[r]}: {attempts.refusals[r]}</li>)}
        </ul>
      )}
    </>
  );
}

/** The results of one campaign (issue 33 slice 4): figures, then the charts, loaded only when opened; export for campaign.export. */
export function ResultsDialog({ family, campaign, onClose }: { family: CampaignFamily; campaign: Pick<Campaign, 'id' | 'name'>; onClose: () => void }) {
  const s = useStyles();
  const { can } = useCan();
  const results = useCampaignResults(family, campaign.id);
  const [busy, setBusy] = useState(false);
  const exportAs = async (format: 'csv' | 'xlsx') => {
    setBusy(true);
    try {
      await downloadResults(family, campaign.id, format);
      notify('success', 'Đã xuất kết quả');
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface className={s.surface} data-testid="results-dialog">
        <DialogBody>
          <DialogTitle>Kết quả: {campaign.name}</DialogTitle>
          <DialogContent className={s.body}>
            {results.isPending ? <LoadingState /> : results.isError ? <ErrorState message="Không tải được kết quả" onRetry={() => void results.refetch()} /> : (
              <>
                <Summary results={results.data} />
                <Suspense fallback={<LoadingState />}><ResultsCharts results={results.data} /></Suspense>
                <ContactCalls family={family} campaignId={campaign.id} />
              </>
            )}
          </DialogContent>
          <DialogActions>
            {can(PERM.campaign.export) && (
              <>
                <Button disabled={busy} onClick={() => void exportAs('xlsx')} data-testid="results-export-xlsx">Xuất Excel</Button>
                <Button disabled={busy} onClick={() => void exportAs('csv')} data-testid="results-export-csv">Xuất CSV</Button>
              </>
            )}
            <Button appearance="primary" onClick={onClose}>Đóng</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** The row's "Kết quả" for campaign.view: any campaign that has contacts. */
export function ResultsButton({ family, campaign }: { family: CampaignFamily; campaign: Pick<Campaign, 'id' | 'name'> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="campaign-results">Kết quả</Button>
      {open && <ResultsDialog family={family} campaign={campaign} onClose={() => setOpen(false)} />}
    </>
  );
}
