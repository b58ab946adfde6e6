import { entityStrings, type AudioKind } from '@tongdai/contracts';
import { registerTranslations } from '@tongdai/platform';

/** Strings of the greeting and music-on-hold screens: one namespace per kind, plus the shared audio strings. */
export const AUDIO_NS = 'pbx-audio';
export const AUDIO_KIND_NS: Record<AudioKind, string> = { greeting: 'pbx-greeting', moh: 'pbx-moh' };

registerTranslations(AUDIO_NS, {
  uploaded: 'Đã tải lên tệp âm thanh',
  play: 'Phát',
  pause: 'Tạm dừng',
  loadingAudio: 'Đang tải…',
  file: 'Tệp âm thanh',
  fileHint: 'WAV hoặc MP3, tối đa {{mb}} MB',
  chosen: '{{name}} · {{size}}',
});

const fields = {
  name: 'Tên',
  moh_class: 'Lớp nhạc chờ',
  file_name: 'Tên tệp',
  size: 'Dung lượng',
  duration: 'Thời lượng',
  created_at: 'Ngày tạo',
  play: 'Nghe thử',
};
const strings = (one: string, nav: string) => ({
  ...entityStrings(one, nav, 'tên, tên tệp'),
  listTitle: nav,
  add: 'Tải lên',
  addTitle: `Tải lên ${one}`,
  created: `Đã tải lên ${one}`,
  confirmDelete: `Bạn có chắc muốn xoá ${one} "{{name}}"? Nơi nào đang dùng tệp này sẽ không phát được nữa.`,
  fields,
  hints: { moh_class: 'Các tệp cùng lớp được phát nối tiếp cho người đang chờ; để trống là lớp mặc định' },
});
registerTranslations(AUDIO_KIND_NS.greeting, strings('lời chào', 'Lời chào'));
registerTranslations(AUDIO_KIND_NS.moh, strings('nhạc chờ', 'Nhạc chờ'));
