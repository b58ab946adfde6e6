import type { AudioKind } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { PbxFormDialog, useDialogParam } from '../shared/PbxFormDialog';
import { PbxListScreen } from '../shared/PbxListScreen';
import { audioEntities } from './audio.entity';
import { audioPerm } from './audio.routes';
import { UploadAudioDialog } from './UploadAudioDialog';

/**
 * /greeting and /music-on-holds: the list (listen, rename, delete) with its two dialogs, upload
 * (?dialog=new) and rename (?dialog=<id>).
 */
function AudioScreen({ kind }: { kind: AudioKind }) {
  const { can } = useCan();
  const dialog = useDialogParam();
  const entity = audioEntities[kind];
  const id = dialog.value && /^\d+$/.test(dialog.value) ? Number(dialog.value) : null;
  return (
    <>
      <PbxListScreen entity={entity} />
      {dialog.value === 'new' && can(audioPerm[kind].create) && <UploadAudioDialog kind={kind} onClose={dialog.close} />}
      {id !== null && can(audioPerm[kind].edit) && <PbxFormDialog key={id} entity={entity} id={id} onClose={dialog.close} />}
    </>
  );
}

export const GreetingList = () => <AudioScreen kind="greeting" />;
export const MohList = () => <AudioScreen kind="moh" />;
