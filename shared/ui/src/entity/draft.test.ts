import { act, renderHook } from '@testing-library/react';
import * as v from 'valibot';
import { useEntityDraft, blankDraft, clearErrors, errorOf, parseDraft, registerFieldKind, toDraft, type FieldDef } from '../index';

// An area's own kind, registered the way the PBX and the CRM register theirs.
declare module './types' {
  interface FieldKindOptions {
    testTags: object;
  }
}
registerFieldKind('testTags', { Control: () => null, toDraft: (x) => (Array.isArray(x) ? x.map(String) : []) });

const REQUIRED = 'Thông tin không được để trống';
const schema = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, REQUIRED)),
  ring_time: v.optional(v.pipe(v.string(), v.transform(Number), v.number(), v.minValue(5, 'Tối thiểu 5 giây')), '20'),
  active: v.optional(v.boolean(), true),
  tags: v.optional(v.array(v.pipe(v.string(), v.minLength(2, 'Nhãn quá ngắn'))), []),
});
const fields: FieldDef[] = [
  { name: 'name', kind: 'text', required: true }, { name: 'ring_time', kind: 'int', unit: 'ui:seconds' },
  { name: 'active', kind: 'switch' }, { name: 'tags', kind: 'testTags' },
];

describe('draft over the valibot schema', () => {
  it('a blank form starts from the schema defaults, by kind', () => {
    expect(blankDraft({ fields, schema })).toEqual({ name: '', ring_time: '20', active: true, tags: [] });
  });

  it('an API row becomes form state: numbers as text, none as "", a registered kind its own way', () => {
    expect(toDraft({ fields }, { id: 1, name: 'A', ring_time: 30, active: false, tags: [1, 'b'] })).toEqual({ name: 'A', ring_time: '30', active: false, tags: ['1', 'b'] });
    expect(toDraft({ fields }, { name: null })).toMatchObject({ name: '', ring_time: '', active: true, tags: [] });
  });

  it('parses to the API input, or gives the first message of each dot path', () => {
    expect(parseDraft(schema, { name: ' Kinh doanh ', ring_time: '30', active: true, tags: [] })).toEqual({ ok: true, input: { name: 'Kinh doanh', ring_time: 30, active: true, tags: [] } });
    expect(parseDraft(schema, { name: '', ring_time: '3', active: true, tags: ['ok', 'x'] })).toEqual({
      ok: false, errors: { name: REQUIRED, ring_time: 'Tối thiểu 5 giây', 'tags.1': 'Nhãn quá ngắn' },
    });
  });

  it('a field shows its own message or that of its first part; changing it clears both', () => {
    const errors = { 'tags.1': 'Nhãn quá ngắn', name: REQUIRED };
    expect(errorOf(errors, 'tags')).toBe('Nhãn quá ngắn');
    expect(errorOf(errors, 'ring_time')).toBeUndefined();
    expect(clearErrors(errors, 'tags')).toEqual({ name: REQUIRED });
  });

  it('a kind nobody registered is named in the error', () => {
    expect(() => blankDraft({ fields: [{ name: 'x', kind: 'nope' } as unknown as FieldDef], schema })).toThrow('Field kind "nope" is not registered');
  });

  it('a kept value (not on the form) goes back to the API as it came; blank is the schema default', () => {
    const owned = { fields: [{ name: 'name', kind: 'text' }, { name: 'user_id', kind: 'kept' }] as FieldDef[], schema: v.object({ name: v.string(), user_id: v.optional(v.nullable(v.number()), null) }) };
    expect(toDraft(owned, { name: 'A', user_id: 5 })).toEqual({ name: 'A', user_id: 5 });
    expect(blankDraft(owned)).toEqual({ name: '', user_id: null });
    expect(parseDraft(owned.schema, toDraft(owned, { name: 'A', user_id: 5 }))).toEqual({ ok: true, input: { name: 'A', user_id: 5 } });
  });

  it('useEntityDraft: a new object starts from the prefill; clear goes back to it', () => {
    const form = { fields, schema };
    const { result } = renderHook(() => useEntityDraft(form, undefined, { name: 'Kinh doanh' }));
    expect(result.current.draft).toEqual({ name: 'Kinh doanh', ring_time: '20', active: true, tags: [] });
    act(() => { result.current.set('name')('Khác'); });
    act(() => { result.current.clear(); });
    expect(result.current.draft.name).toBe('Kinh doanh');
  });
});
