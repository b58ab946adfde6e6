/** File size in KB under 1024 KB, otherwise in MB (SPEC §9). */
export function formatFileSize(bytes: number): string {
  const kb = bytes / 1024;
  if (kb < 1024) return `${round(kb)} KB`;
  return `${round(kb / 1024)} MB`;
}

function round(n: number): string {
  return (Math.round(n * 100) / 100).toString();
}

/** Duration as mm:ss (minutes keep counting past 59). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Lives in contracts so the API masks exactly as the screens do (docs/adr/0006). */
export { maskPhone } from '@tongdai/contracts';
