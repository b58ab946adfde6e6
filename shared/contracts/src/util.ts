/** SPEC §5: an object is incomplete if any of its values is empty or undefined. */
export function isIncomplete(obj: Record<string, unknown>): boolean {
  return Object.values(obj).some((v) => v === undefined || v === null || (typeof v === 'string' && v.trim() === ''));
}
