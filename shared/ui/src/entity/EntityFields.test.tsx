import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import * as v from 'valibot';
import { i18n, registerTranslations } from '@tongdai/platform';
import { EntityFields } from './EntityFields';
import { useEntityDraft } from './useEntityForm';
import type { FieldDef } from './types';

registerTranslations('kit-trunks', { keep: 'Để trống để giữ mật khẩu hiện tại', fields: { register: 'Đăng ký', interval: 'Chu kỳ', password: 'Mật khẩu' } });

const form = {
  fields: [
    { name: 'register', kind: 'switch' },
    { name: 'interval', kind: 'int', when: (d) => d.register === true },
    { name: 'password', kind: 'password', keepPlaceholder: 'keep' },
  ] as FieldDef[],
  schema: v.object({ register: v.optional(v.boolean(), true), interval: v.optional(v.string(), '300'), password: v.optional(v.string(), '') }),
};

function Harness({ existing }: { existing: object | null }) {
  const [row] = useState(existing);
  const draft = useEntityDraft(form, row);
  return <EntityFields entity={{ ns: 'kit-trunks', fields: form.fields }} form={draft} />;
}
const renderForm = (existing: object | null) => render(<I18nextProvider i18n={i18n}><Harness existing={existing} /></I18nextProvider>);

describe('EntityFields', () => {
  it('shows a field with `when` only while it holds of the form', () => {
    renderForm(null);
    expect(screen.getByTestId('field-interval')).toHaveProperty('value', '300');
    fireEvent.click(screen.getByTestId('field-register'));
    expect(screen.queryByTestId('field-interval')).toBeNull();
    fireEvent.click(screen.getByTestId('field-register'));
    expect(screen.getByTestId('field-interval')).toHaveProperty('value', '300');
  });

  it('a write-only password says that empty keeps it, on edit only', () => {
    renderForm({ register: false, interval: '60' });
    expect(screen.getByTestId('field-password').getAttribute('placeholder')).toBe('Để trống để giữ mật khẩu hiện tại');
    expect(screen.queryByTestId('field-interval')).toBeNull();
  });

  it('a new object has no such placeholder', () => {
    renderForm(null);
    expect(screen.getByTestId('field-password').getAttribute('placeholder')).toBeNull();
  });
});
