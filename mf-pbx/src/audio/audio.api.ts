import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AudioFile, AudioKind, AudioMetaInput } from '@tongdai/contracts';
import { pbxApi } from '@tongdai/platform';
import { codeCompany } from '../shared/pbx.api';

/** Greeting and music-on-hold files: the resource is the kind (PBX_RESOURCES.greeting / .moh). */
const searchParams = () => ({ CodeCompany: codeCompany() });

/** Multipart POST /partner/{greeting|moh} (fields name, [moh_class], file). */
export function useUploadAudio(kind: AudioKind) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { meta: AudioMetaInput; file: File }) => {
      const body = new FormData();
      body.append('name', v.meta.name);
      if (kind === 'moh') body.append('moh_class', v.meta.moh_class);
      body.append('file', v.file, v.file.name);
      return pbxApi().post(`partner/${kind}`, { body, searchParams: searchParams(), timeout: 120_000 }).json<{ data: AudioFile }>().then((r) => r.data);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['pbx'] }),
  });
}

/** The bytes, with the bearer token (an <audio src> could not send it). */
export const fetchAudioBlob = (kind: AudioKind, id: number): Promise<Blob> =>
  pbxApi().get(`partner/${kind}/${id}/audio`, { searchParams: searchParams(), timeout: 60_000 }).blob();
