/** File size in KB under 1024 KB, otherwise in MB (SPEC §9). */
export function formatFileSize(bytes: number): string {
  const kb = bytes / 1024;
  if (kb < 1024) return `${round(kb)} KB`;
  return `${round(kb / 1024)} MB`;
}

function round(n: number): string {
  return (Math.round(n * 100) / 100).toString();
}

/** Live in contracts so the API masks and writes durations exactly as the screens do (docs/adr/0006, exports). */
export { maskPhone, formatDuration } from '@tongdai/contracts';
