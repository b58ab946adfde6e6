import { PERM } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { EntityListScreen } from '@tongdai/ui';
import { DncCounts, DncImportButton } from './DncImport';
import { consentEntity } from './consent.entity';
import { dncEntity } from './dnc.entity';

/** /marketings/dnc: the kit's list (add in a dialog, remove), the lists' sizes and the file import. */
export const DncNumbers = {
  List: function DncList() {
    const { can } = useCan();
    return <EntityListScreen entity={dncEntity} toolbar={<><DncCounts />{can(PERM.dnc.edit) && <DncImportButton />}</>} />;
  },
};

/** /marketings/consent: the consents recorded, one recorded in a dialog. */
export const Consents = { List: () => <EntityListScreen entity={consentEntity} /> };
