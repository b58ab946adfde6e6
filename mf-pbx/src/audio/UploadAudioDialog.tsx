import { useState } from 'react';
import { Field } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { AUDIO_MAX_BYTES, type AudioKind, type AudioMetaInput } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { FileInput, formatFileSize } from '@tongdai/ui';
import { errorOf } from '../shared/draft';
import { PbxFields } from '../shared/PbxFields';
import { usePbxDraft } from '../shared/usePbxForm';
import { FormDialog } from '../area-kit/FormDialog';
import { useUploadAudio } from './audio.api';
import { audioEntities } from './audio.entity';
import { AUDIO_ACCEPT, checkAudioFile } from './audioFile';
import { AUDIO_KIND_NS, AUDIO_NS } from './i18n';


/** Upload: name, [class], and a WAV/MP3 file checked in the browser before it is sent. */
export function UploadAudioDialog({ kind, onClose }: { kind: AudioKind; onClose: () => void }) {
  const { t } = useTranslation([AUDIO_KIND_NS[kind], AUDIO_NS]);
  const entity = audioEntities[kind];
  const form = usePbxDraft(entity, undefined);
  const upload = useUploadAudio(kind);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileError = errorOf(form.errors, 'file');

  const choose = (f: File | null) => {
    setFile(f);
    form.setErrors((e) => ({ ...e, file: f ? checkAudioFile(f) ?? undefined : undefined }));
    // The file's own name is a good default name.
    if (f && !String(form.draft.name).trim()) form.set('name')(f.name.replace(/\.[^.]+$/, ''));
  };

  const submit = async () => {
    setError(null);
    const problem = checkAudioFile(file);
    const meta = form.validate() as AudioMetaInput | null;
    if (problem) form.setErrors((e) => ({ ...e, file: problem }));
    if (!meta || problem || !file) return;
    try {
      await upload.mutateAsync({ meta, file });
      notify('success', t('created'));
      onClose();
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])));
      setError(body.message);
    }
  };

  return (
    <FormDialog title={t('addTitle')} testId="audio-upload-form" error={error} saving={upload.isPending} onSubmit={() => void submit()} onClose={onClose}>
      <PbxFields entity={entity} form={form} />
      <Field label={t(`${AUDIO_NS}:file`)} required validationMessage={fileError} validationState={fileError ? 'error' : 'none'}
        hint={file && !fileError ? t(`${AUDIO_NS}:chosen`, { name: file.name, size: formatFileSize(file.size) }) : t(`${AUDIO_NS}:fileHint`, { mb: AUDIO_MAX_BYTES / 1024 / 1024 })}>
        <FileInput accept={AUDIO_ACCEPT} label={t(`${AUDIO_NS}:file`)} onChange={choose} testId="field-file" />
      </Field>
    </FormDialog>
  );
}
