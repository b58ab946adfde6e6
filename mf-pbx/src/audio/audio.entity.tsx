import { AudioMetaInputSchema, PERM, paths, type AudioFile, type AudioKind } from '@tongdai/contracts';
import { formatDuration, formatFileSize, type EntityColumn, type FieldDef } from '@tongdai/ui';
import { nameCol } from '../shared/columns';
import { pbxEntity } from '../shared/entity';
import { formatDate } from '../area-kit/format';
import { AUDIO_KIND_NS } from './i18n';
import { PlayButton } from './PlayButton';

/**
 * Greetings and music on hold: uploaded WAV/MP3 files. Rename goes through the shared dialog
 * (PUT JSON name, moh_class); upload is multipart (UploadAudioDialog).
 */
const audioEntity = (kind: AudioKind) => {
  const moh = kind === 'moh';
  const fields: FieldDef[] = [{ name: 'name', kind: 'text', required: true }];
  if (moh) fields.push({ name: 'moh_class', kind: 'text', hint: true });
  const columns: EntityColumn<AudioFile>[] = [
    nameCol(),
    ...(moh ? [{ key: 'moh_class', header: 'moh_class', render: (r: AudioFile) => <span data-testid="row-moh_class">{r.moh_class || 'default'}</span> }] : []),
    { key: 'file_name', header: 'file_name', render: (r) => <span data-testid="row-file_name">{r.file_name}</span> },
    { key: 'size', header: 'size', render: (r) => <span data-testid="row-size">{formatFileSize(r.size_bytes)}</span> },
    { key: 'duration', header: 'duration', render: (r) => <span data-testid="row-duration">{formatDuration(r.duration_seconds)}</span> },
    { key: 'created_at', header: 'created_at', render: (r) => formatDate(r.created_at) },
    { key: 'play', header: 'play', render: (r) => <PlayButton kind={kind} id={r.id} /> },
  ];
  return pbxEntity<AudioFile>({
    key: kind, ns: AUDIO_KIND_NS[kind], resource: kind, permission: PERM[kind], paths: audioPaths[kind],
    schema: AudioMetaInputSchema, fields, columns, rowName: (r) => r.name,
  });
};

const audioPaths = { greeting: paths.greeting, moh: paths.moh } as const;
export const audioEntities: Record<AudioKind, ReturnType<typeof audioEntity>> = { greeting: audioEntity('greeting'), moh: audioEntity('moh') };
