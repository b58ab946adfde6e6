import { useState, type ReactElement } from 'react';
import { Button } from '@fluentui/react-components';
import { PauseRegular, PlayRegular, StopRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { CAMPAIGN_TRANSITIONS, PERM, transitionLabel, type Campaign, type CampaignFamily, type CampaignState } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { ConfirmDialog } from '@tongdai/ui';
import { NS } from '../i18n';
import { useTransition } from './campaign.api';

type To = Exclude<CampaignState, 'draft'>;
const ICONS: Record<To, ReactElement> = { running: <PlayRegular />, paused: <PauseRegular />, ended: <StopRegular /> };

/**
 * The state actions a campaign's state allows (contracts CAMPAIGN_TRANSITIONS, the table the API
 * enforces), each confirmed first, for holders of campaign.run; the API's refusal is shown as it says it.
 */
export function StateActions({ family, campaign }: { family: CampaignFamily; campaign: Pick<Campaign, 'id' | 'name' | 'state'> }) {
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const move = useTransition(family);
  const [asking, setAsking] = useState<To | null>(null);
  if (!can(PERM.campaign.run)) return null;
  const targets = CAMPAIGN_TRANSITIONS[campaign.state] as readonly To[];
  const go = async (to: To) => {
    try {
      await move.mutateAsync({ id: campaign.id, to });
      notify('success', t(`campaign.done.${to}`, { name: campaign.name }));
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setAsking(null);
    }
  };
  return (
    <>
      {targets.map((to) => (
        <Button key={to} size="small" icon={ICONS[to]} onClick={() => setAsking(to)} data-testid={`campaign-${to}`}>
          {transitionLabel(campaign.state, to)}
        </Button>
      ))}
      <ConfirmDialog
        open={asking !== null} busy={move.isPending}
        title={asking ? `${transitionLabel(campaign.state, asking)} ${t('campaign.one')}` : ''}
        message={asking ? t(`campaign.confirm.${asking === 'running' && campaign.state === 'paused' ? 'resume' : asking}`, { name: campaign.name }) : ''}
        onConfirm={() => asking && void go(asking)} onCancel={() => setAsking(null)}
      />
    </>
  );
}
