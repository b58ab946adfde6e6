import type { Campaign, CampaignFamily } from '@tongdai/contracts';
import { EntityListScreen, type EntityDef } from '@tongdai/ui';
import { marketingCampaign, surveyCampaign } from './campaigns.entities';
import { ContactImportButton } from './ContactImportDialog';
import { StateActions } from './StateActions';

/** A family's list: the kit's list, add and edit in a dialog, the state actions and the contact import on each row. */
function CampaignList({ family, entity }: { family: CampaignFamily; entity: EntityDef<Campaign> }) {
  return (
    <EntityListScreen
      entity={entity} rowActionsWidth="340px"
      rowActions={(r) => (
        <>
          <ContactImportButton family={family} campaign={r} />
          <StateActions family={family} campaign={r} />
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
