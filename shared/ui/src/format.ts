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

/**
 * Phone shown partly hidden with *** (SPEC §9). `position` is where the three stars start,
 * 0 meaning "the middle"; the digits covered are replaced, the length shown stays readable.
 */
export function maskPhone(phone: string, position = 0): string {
  if (!phone || phone.length < 4) return phone;
  const start = position > 0 ? Math.min(position, phone.length - 3) : Math.floor((phone.length - 3) / 2);
  return `${phone.slice(0, start)}***${phone.slice(start + 3)}`;
}
