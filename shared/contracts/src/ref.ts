import * as v from 'valibot';
import { MSG } from './messages';

/**
 * References to another row by id. Browser selects hand over strings ("" = none), JSON
 * clients numbers; both parse to a positive int4 so the API never sees a malformed id.
 */
const ID_RE = /^\d{1,9}$/;
const INVALID_REF = 'Giá trị không hợp lệ';

const idOf = (message: string) =>
  v.union(
    [
      v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(2_147_483_647, message)),
      v.pipe(v.string(message), v.regex(ID_RE, message), v.transform(Number)),
    ],
    message,
  );

/** A required reference: empty or missing reads "Thông tin không được để trống". */
export const requiredRef = idOf(MSG.required);

const nullableRef = v.pipe(
  v.nullable(v.union([v.literal(''), idOf(INVALID_REF)], INVALID_REF)),
  v.transform((x): number | null => (x === '' || x === null ? null : x)),
);
/** An optional reference: "", null or missing mean "none" (null). */
export const optionalRef = v.optional(nullableRef, null);
/** Same, but a missing key stays undefined (the type keeps the key optional). */
export const omittableRef = v.optional(nullableRef);

/** A list filter by reference in a query string: "" or absent means "all" (absent stays absent). */
export const refFilter = v.optional(
  v.union([v.literal(''), v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.regex(ID_RE, INVALID_REF), v.transform(Number))], INVALID_REF),
);
