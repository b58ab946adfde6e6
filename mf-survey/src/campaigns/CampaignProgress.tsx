import { ProgressBar, Text, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { abandonRate, CONTACT_RESULTS, CONTACT_RESULT_LABELS, DECREE91_MESSAGES, DECREE91_REFUSALS, type Campaign, type CampaignFamily, type CampaignProgress } from '@tongdai/contracts';
import { NS } from '../i18n';
import { useCampaignProgress } from './campaign.api';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: '130px' },
});

/** "Đồng ý 3 · Máy bận 1 · …": every result and Decree 91 refusal that has contacts. */
export function progressDetail(p: CampaignProgress): string {
  const parts = [
    ...CONTACT_RESULTS.filter((r) => p.by_result[r]).map((r) => `${CONTACT_RESULT_LABELS[r]} ${p.by_result[r]}`),
    ...DECREE91_REFUSALS.filter((r) => p.refused[r]).map((r) => `${DECREE91_MESSAGES[r]}: ${p.refused[r]}`),
  ];
  return parts.join(' · ');
}

const percent = new Intl.NumberFormat('vi-VN', { style: 'percent', maximumFractionDigits: 1 });

/** Contacts done of the total, a bar, and per result on hover; live while the campaign runs or is paused. */
export function CampaignProgressCell({ family, campaign }: { family: CampaignFamily; campaign: Pick<Campaign, 'id' | 'state' | 'progress'> & { mode?: Campaign['mode'] } }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const p = useCampaignProgress(family, campaign).data ?? campaign.progress;
  const detail = progressDetail(p);
  const body = (
    <div className={s.root} data-testid="campaign-progress">
      <Text size={200}>{t('campaign.progress', { done: p.done, total: p.total })}</Text>
      <ProgressBar value={p.total ? p.done / p.total : 0} thickness="large" aria-label={t('campaign.progress', { done: p.done, total: p.total })} />
      {detail && <Text size={100}>{detail}</Text>}
      {p.dialer && (
        <Text size={100} data-testid="campaign-dialer">
          {campaign.mode === 'voice'
            // An automated voice survey has no agents (nobody ready or talking): its calls up and the contacts who answered.
            ? t('campaign.voiceDialer', { calling: p.dialer.calling, answered: p.dialer.answered })
            : t('campaign.dialer', { ...p.dialer, rate: percent.format(abandonRate(p.dialer)) })}
        </Text>
      )}
      {p.dialer?.hotline_minute && (
        <Text size={100} data-testid="campaign-hotline-minute">
          {t(p.dialer.hotline_minute.started >= p.dialer.hotline_minute.cap ? 'campaign.hotlineFull' : 'campaign.hotlineMinute', p.dialer.hotline_minute)}
        </Text>
      )}
    </div>
  );
  return p.total ? body : <Text size={200} data-testid="campaign-progress">{t('campaign.noContacts')}</Text>;
}
