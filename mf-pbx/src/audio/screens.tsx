import type { AudioKind } from '@tongdai/contracts';
import { EntityListScreen } from '@tongdai/ui';
import { audioEntities } from './audio.entity';
import { UploadAudioDialog } from './UploadAudioDialog';

/**
 * /greeting and /music-on-holds: the list (listen, rename, delete) with its two dialogs, upload
 * (?dialog=new) and rename (?dialog=<id>, the kit's form dialog).
 */
function AudioScreen({ kind }: { kind: AudioKind }) {
  return <EntityListScreen entity={audioEntities[kind]} createDialog={(close) => <UploadAudioDialog kind={kind} onClose={close} />} />;
}

export const GreetingList = () => <AudioScreen kind="greeting" />;
export const MohList = () => <AudioScreen kind="moh" />;
