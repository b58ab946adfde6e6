/** SQL helpers every repository needs: written once here, never copied into a module. */

/** ILIKE pattern for a literal substring: % and _ in the search are not wildcards. */
export const likePattern = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A timestamp as the API answers it (ISO 8601, UTC): pg gives Date, PGlite sometimes a string. */
export const iso = (d: unknown): string => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());
