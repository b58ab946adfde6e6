import type { Campaign, CampaignFamily } from '@tongdai/contracts';
import { PERM, paths } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { EntityListScreen, LinkButton, type EntityDef } from '@tongdai/ui';
import { marketingCampaign, surveyCampaign } from './campaigns.entities';
import { ContactImportButton } from './ContactImportDialog';
import { ResultsButton } from './ResultsDialog';
import { StateActions } from './StateActions';

/** A family's list: the kit's list, add and edit in a dialog, the state actions and the contact import on each row. */
function CampaignList({ family, entity }: { family: CampaignFamily; entity: EntityDef<Campaign> }) {
  const { can } = useCan();
  return (
    <EntityListScreen
      entity={entity} rowActionsWidth="420px"
      rowActions={(r) => (
        <>
          <ContactImportButton family={family} campaign={r} />
          <StateActions family={family} campaign={r} />
          {r.state !== 'draft' && <ResultsButton family={family} campaign={r} />}
          {r.state === 'running' && can(PERM.campaign.run) && (
            <LinkButton size="small" appearance="primary" to={`${paths.surveyCampaignStart.to(r.id)}${family === 'marketing' ? '?family=marketing' : ''}`} data-testid="campaign-work">
              Gọi liên hệ
            </LinkButton>
          )}
        </>
      )}
      canDelete={(r) => r.state === 'draft'}
    />
  );
}

/** /survey/campaign */
export const SurveyCampaigns = { List: () => <CampaignList family="survey" entity={surveyCampaign} /> };
/** /marketings/campaign */
export const MarketingCampaigns = { List: () => <CampaignList family="marketing" entity={marketingCampaign} /> };
