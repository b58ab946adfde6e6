import { Badge } from '@fluentui/react-components';
import {
  CAMPAIGN_KIND_LABELS, CAMPAIGN_MODE_LABELS, MARKETING_MODES, CAMPAIGN_STATE_LABELS, FEATURES, displayForm, PERM, campaignApi, campaignInputSchema, paths, type Campaign, type CampaignFamily, type CampaignState,
} from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, type EntityDef, type PermSet } from '@tongdai/ui';
import { NS } from '../i18n';
import { campaignScope } from './campaign.api';
import { CampaignProgressCell } from './CampaignProgress';
import './fieldKinds';

/** campaign.view reads and follows progress; campaign.edit adds, edits, deletes drafts and imports contacts (campaign.run: the state actions). */
const permission: PermSet = { view: PERM.campaign.view, create: PERM.campaign.edit, edit: PERM.campaign.edit, delete: PERM.campaign.edit };

const STATE_COLOURS: Record<CampaignState, 'informative' | 'success' | 'warning' | 'subtle'> = {
  draft: 'informative', running: 'success', paused: 'warning', ended: 'subtle',
};
export const StateBadge = ({ state }: { state: CampaignState }) => (
  <Badge appearance="tint" color={STATE_COLOURS[state]} data-testid="campaign-state">{CAMPAIGN_STATE_LABELS[state]}</Badge>
);

/**
 * /survey/campaign and /marketings/campaign: one declaration, two families. A survey asks questions,
 * a marketing campaign reads a script; both have agents, a calling window, a caller-ID hotline and retries.
 */
const marketingModeLabels = Object.fromEntries(MARKETING_MODES.map((m) => [m, CAMPAIGN_MODE_LABELS[m]]));

function campaignEntity(family: CampaignFamily): EntityDef<Campaign> {
  const survey = family === 'survey';
  return defineEntity<Campaign>({
    key: `${family}-campaign`, ns: NS, prefix: `${family}Campaign`, paths: survey ? paths.surveyCampaign : paths.marketingCampaign, permission,
    feature: survey ? FEATURES.survey : FEATURES.marketing,
    schema: campaignInputSchema(family),
    fields: [
      { name: 'name', kind: 'text', required: true },
      { name: 'purpose', kind: 'choice', options: CAMPAIGN_KIND_LABELS, required: true, hint: true },
      { name: 'hotline_id', kind: 'campaignHotline', family, required: true },
      // An automated voice survey is a survey's mode only (the contract refuses it for marketing).
      { name: 'mode', kind: 'choice', options: survey ? CAMPAIGN_MODE_LABELS : marketingModeLabels, required: true, hint: true },
      // Predictive only: how many of the answered calls may find no agent free (regulators: at most 3 %).
      { name: 'abandon_cap_pct', kind: 'int', unit: `${NS}:campaign.percent`, when: (d) => d.mode === 'predictive' },
      // An automated voice survey: how many of its calls are up at once.
      ...(survey ? [{ name: 'voice_channels', kind: 'int' as const, hint: true, when: (d: Record<string, unknown>) => d.mode === 'voice' }] : []),
      { name: 'time_group_id', kind: 'campaignTimeGroup', family },
      ...(survey ? [{ name: 'question_ids', kind: 'campaignQuestions' as const, family, required: true }] : []),
      { name: 'script', kind: 'textarea', required: !survey, hint: true },
      // Nobody works an automated voice survey: no agents to choose.
      { name: 'agent_ids', kind: 'campaignAgents', family, when: (d) => d.mode !== 'voice' },
      { name: 'team_ids', kind: 'campaignTeams', family, when: (d) => d.mode !== 'voice' },
      { name: 'retry_busy_min', kind: 'int', unit: `${NS}:campaign.minutes` },
      { name: 'retry_no_answer_min', kind: 'int', unit: `${NS}:campaign.minutes` },
      { name: 'max_attempts', kind: 'int' },
      { name: 'description', kind: 'textarea' },
    ],
    columns: [
      { key: 'name', header: 'name', render: (r) => <span data-testid="row-name" title={r.name}>{r.name}</span> },
      // The hotline and the calling mode under the purpose: the name keeps its room beside the row's actions.
      {
        key: 'purpose', header: 'purpose', width: '160px', render: (r, { t }) => (
          <span title={`${displayForm(r.hotline_number)} · ${CAMPAIGN_MODE_LABELS[r.mode]}`}>
            {CAMPAIGN_KIND_LABELS[r.purpose]}<br />{displayForm(r.hotline_number)}<br /><span data-testid="row-mode">{t(`campaign.modes.${r.mode}`)}</span>
          </span>
        ),
      },
      { key: 'state', header: 'state', width: '100px', render: (r) => <StateBadge state={r.state} /> },
      { key: 'progress', header: 'progress', width: '160px', render: (r) => <CampaignProgressCell family={family} campaign={r} /> },
    ],
    api: crudResource({ scope: campaignScope(family), name: 'campaigns', base: campaignApi(family).base, client: tenantApi }),
    rowName: (r) => r.name,
  });
}

export const surveyCampaign = campaignEntity('survey');
export const marketingCampaign = campaignEntity('marketing');
