import * as v from 'valibot';
import { MSG } from './messages';
import { SheetImportSchema } from './sheet-import';

const errors = (input: unknown) => {
  const r = v.safeParse(SheetImportSchema, input);
  return r.success ? {} : v.flatten<typeof SheetImportSchema>(r.issues).nested;
};

describe('SheetImportSchema (SPEC §5: incomplete if any value is empty or undefined)', () => {
  it('accepts a complete import', () => {
    expect(errors({ name: 'Khảo sát tháng 3', sheet_id: '1AbC', sheet_name: 'Trang tính1', user_id: 7 })).toEqual({});
  });
  it('names every empty or missing field with the required message', () => {
    expect(errors({ name: 'Khảo sát', sheet_id: '  ', user_id: '' })).toEqual({ sheet_id: [MSG.required], sheet_name: [MSG.required], user_id: [MSG.required] });
  });
});
