/** SPEC §5: an object is incomplete if any of its values is empty or undefined. */
export function isIncomplete(obj: Record<string, unknown>): boolean {
  return Object.values(obj).some((v) => v === undefined || v === null || (typeof v === 'string' && v.trim() === ''));
}

/**
 * Text as search compares it: lower case, Vietnamese marks removed, đ/Đ → d ("Đặng Thị Hương" →
 * "dang thi huong"). The database's fold() (migration 0009) does the same for list searches.
 */
export const foldText = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[đĐ]/g, 'd').toLowerCase();
