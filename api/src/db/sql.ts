/** SQL helpers every repository needs: written once here, never copied into a module. */

/** ILIKE pattern for a literal substring: % and _ in the search are not wildcards. */
export const likePattern = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * "Contains", ignoring case and Vietnamese accents ("huong" finds "Hương", "duc" finds "Đức"), over
 * any of `columns`; `param` is the placeholder of a likePattern(). fold() is migration 0009's.
 */
export const searchAny = (columns: readonly string[], param: string): string => `(${columns.map((c) => `fold(${c}) like fold(${param})`).join(' or ')})`;

/** A timestamp as the API answers it (ISO 8601, UTC): pg gives Date, PGlite sometimes a string. */
export const iso = (d: unknown): string => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());
