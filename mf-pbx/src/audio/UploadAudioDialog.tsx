import { useState } from 'react';
import { Field } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { AUDIO_MAX_BYTES, type AudioKind, type AudioMetaInput } from '@tongdai/contracts';
import { EntityFields, FileInput, FormDialog, errorOf, formatFileSize, useEntityDraft, useFormSubmit } from '@tongdai/ui';
import { useUploadAudio } from './audio.api';
import { audioEntities } from './audio.entity';
import { AUDIO_ACCEPT, checkAudioFile } from './audioFile';
import { AUDIO_KIND_NS, AUDIO_NS } from './i18n';


/** Upload: name, [class], and a WAV/MP3 file checked in the browser before it is sent. */
export function UploadAudioDialog({ kind, onClose }: { kind: AudioKind; onClose: () => void }) {
  const { t } = useTranslation([AUDIO_KIND_NS[kind], AUDIO_NS]);
  const entity = audioEntities[kind];
  const form = useEntityDraft(entity, undefined);
  const upload = useUploadAudio(kind);
  const [file, setFile] = useState<File | null>(null);
  const fileError = errorOf(form.errors, 'file');

  const choose = (f: File | null) => {
    setFile(f);
    form.setErrors((e) => ({ ...e, file: f ? checkAudioFile(f) ?? undefined : undefined }));
    // The file's own name is a good default name.
    if (f && !String(form.draft.name).trim()) form.set('name')(f.name.replace(/\.[^.]+$/, ''));
  };

  // The file is checked with the fields: every problem shows at once.
  const validate = () => {
    const problem = checkAudioFile(file);
    const meta = form.validate() as AudioMetaInput | null;
    if (problem) form.setErrors((e) => ({ ...e, file: problem }));
    return meta && !problem && file ? { meta, file } : null;
  };
  const { submit, formError: error } = useFormSubmit({ validate, setErrors: form.setErrors }, (input) => upload.mutateAsync(input), () => t('created'));

  return (
    <FormDialog title={t('addTitle')} testId="audio-upload-form" error={error} saving={upload.isPending} onSubmit={() => void submit().then((ok) => ok && onClose())} onClose={onClose}>
      <EntityFields entity={entity} form={form} />
      <Field label={t(`${AUDIO_NS}:file`)} required validationMessage={fileError} validationState={fileError ? 'error' : 'none'}
        hint={file && !fileError ? t(`${AUDIO_NS}:chosen`, { name: file.name, size: formatFileSize(file.size) }) : t(`${AUDIO_NS}:fileHint`, { mb: AUDIO_MAX_BYTES / 1024 / 1024 })}>
        <FileInput accept={AUDIO_ACCEPT} label={t(`${AUDIO_NS}:file`)} onChange={choose} testId="field-file" />
      </Field>
    </FormDialog>
  );
}
