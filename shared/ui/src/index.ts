import './i18n';

export { formatDuration, formatFileSize, maskPhone } from './format';
export { ErrorState, EmptyState, LoadingState } from './States';
export { ConfirmDialog } from './ConfirmDialog';
export { ListPage, useListParams, type Column, type ListPageProps } from './ListPage';
export { useApiError } from './useApiError';
export { useUrlParams } from './useUrlParams';
export { createRemoteApp } from './RemoteApp';
export { FormShell, TextField, SelectField, type FieldProps } from './Form';
export { AppLink } from './AppLink';
export { CallButton, usePhoneReady } from './CallButton';
export { FormDialog } from './FormDialog';
export { FileInput } from './FileInput';
export { useBlobAudio, type BlobAudioOptions, type PlaybackStatus } from './useBlobAudio';
export { LinkButton } from './LinkButton';
export { useConfirmDelete } from './useConfirmDelete';
export { useFormSubmit, FormRefusal } from './useFormSubmit';
export * from './entity';
