import { useEffect, useState } from 'react';
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, MessageBar, MessageBarBody, Select, makeStyles,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { PasswordChangeSchema, RolePasswordSchema } from '@tongdai/contracts';
import { EntityField, useEntityDraft, useFormSubmit, type DraftForm, type FieldDef } from '@tongdai/ui';
import { ACCOUNTS_NS } from './i18n';

const PASSWORDS: FieldDef[] = [{ name: 'password', kind: 'password', required: true }, { name: 'password_confirmation', kind: 'password', required: true }];
/** One account's password, or (the role screen's action) the password of a user the dialog asks for. */
const OWN: DraftForm = { fields: PASSWORDS, schema: PasswordChangeSchema };
const OF_USER: DraftForm = { fields: [{ name: 'user_id', kind: 'text', required: true }, ...PASSWORDS], schema: RolePasswordSchema };
const useStyles = makeStyles({ body: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/**
 * New password typed twice. With `users`, the dialog first asks whose password (the role
 * screen's action); without, it is the password of the one account it was opened for.
 */
export function PasswordDialog(p: {
  open: boolean;
  title: string;
  users?: { id: number; username: string; full_name: string }[];
  onSubmit: (input: Record<string, unknown>) => Promise<unknown>;
  onClose: () => void;
}) {
  const s = useStyles();
  const { t } = useTranslation(ACCOUNTS_NS);
  const form = useEntityDraft(p.users ? OF_USER : OWN, null, { user_id: p.users?.length === 1 ? String(p.users[0].id) : '' });
  const [busy, setBusy] = useState(false);
  const { submit, formError, reset } = useFormSubmit(form, p.onSubmit, () => t('passwordChanged'));
  // Each opening starts blank (the one user of a role preselected).
  useEffect(() => {
    if (p.open) {
      form.clear();
      reset();
    }
  }, [p.open, p.users]);
  const save = async () => {
    setBusy(true);
    const ok = await submit();
    setBusy(false);
    if (ok) p.onClose();
  };
  const draft = form.draft as Record<string, string>;

  const field = (k: 'password' | 'password_confirmation') => (
    <EntityField field={PASSWORDS.find((f) => f.name === k)!} ns={ACCOUNTS_NS} value={draft[k]} errors={form.errors} onChange={form.set(k)} />
  );

  return (
    <Dialog open={p.open} onOpenChange={(_, d) => !d.open && p.onClose()}>
      <DialogSurface data-testid="password-dialog">
        <form onSubmit={(e) => { e.preventDefault(); void save(); }} noValidate>
          <DialogBody>
            <DialogTitle>{p.title}</DialogTitle>
            <DialogContent className={s.body}>
              {formError && <MessageBar intent="error"><MessageBarBody>{formError}</MessageBarBody></MessageBar>}
              {p.users && (
                <Field label={t('fields.user')} required validationMessage={form.errors.user_id} validationState={form.errors.user_id ? 'error' : 'none'}>
                  <Select value={draft.user_id} onChange={(_, d) => form.set('user_id')(d.value)} data-testid="field-user_id">
                    <option value="">{p.users.length ? t('chooseUser') : t('noUsersInRole')}</option>
                    {p.users.map((u) => <option key={u.id} value={u.id}>{`${u.full_name || u.username} (${u.username})`}</option>)}
                  </Select>
                </Field>
              )}
              {field('password')}
              {field('password_confirmation')}
            </DialogContent>
            <DialogActions>
              <Button type="button" onClick={p.onClose}>{t('cancel', { ns: 'ui' })}</Button>
              <Button type="submit" appearance="primary" disabled={busy} data-testid="confirm-password">{t('save', { ns: 'ui' })}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
