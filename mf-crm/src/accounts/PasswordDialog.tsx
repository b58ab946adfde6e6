import { useEffect, useState } from 'react';
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, MessageBar, MessageBarBody, Select, makeStyles,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import { MSG, PasswordChangeSchema } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { ACCOUNTS_NS } from './i18n';

type Draft = { user_id: string; password: string; password_confirmation: string };
type Errors = Partial<Record<keyof Draft, string>>;
const BLANK: Draft = { user_id: '', password: '', password_confirmation: '' };
const useStyles = makeStyles({ body: { display: 'flex', flexDirection: 'column', gap: '12px' } });

/**
 * New password typed twice. With `users`, the dialog first asks whose password (the role
 * screen's action); without, it is the password of the one account it was opened for.
 */
export function PasswordDialog(p: {
  open: boolean;
  title: string;
  users?: { id: number; username: string; full_name: string }[];
  onSubmit: (draft: Draft) => Promise<unknown>;
  onClose: () => void;
}) {
  const s = useStyles();
  const { t } = useTranslation(ACCOUNTS_NS);
  const [draft, setDraft] = useState<Draft>(BLANK);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (p.open) {
      setDraft({ ...BLANK, user_id: p.users?.length === 1 ? String(p.users[0].id) : '' });
      setErrors({});
      setFormError(null);
    }
  }, [p.open, p.users]);
  const set = (k: keyof Draft) => (value: string) => {
    setDraft((d) => ({ ...d, [k]: value }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const submit = async () => {
    const next: Errors = {};
    if (p.users && !draft.user_id) next.user_id = MSG.required;
    const r = v.safeParse(PasswordChangeSchema, draft);
    if (!r.success) for (const issue of r.issues) next[v.getDotPath(issue) as keyof Draft] ??= issue.message;
    if (Object.keys(next).length) return setErrors(next);
    setBusy(true);
    try {
      await p.onSubmit(draft);
      notify('success', t('passwordChanged'));
      p.onClose();
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])));
      setFormError(body.message);
    } finally {
      setBusy(false);
    }
  };

  const field = (k: 'password' | 'password_confirmation') => (
    <Field label={t(`fields.${k}`)} required validationMessage={errors[k]} validationState={errors[k] ? 'error' : 'none'}>
      <Input type="password" autoComplete="new-password" value={draft[k]} onChange={(_, d) => set(k)(d.value)} data-testid={`field-${k}`} />
    </Field>
  );

  return (
    <Dialog open={p.open} onOpenChange={(_, d) => !d.open && p.onClose()}>
      <DialogSurface data-testid="password-dialog">
        <form onSubmit={(e) => { e.preventDefault(); void submit(); }} noValidate>
          <DialogBody>
            <DialogTitle>{p.title}</DialogTitle>
            <DialogContent className={s.body}>
              {formError && <MessageBar intent="error"><MessageBarBody>{formError}</MessageBarBody></MessageBar>}
              {p.users && (
                <Field label={t('fields.user')} required validationMessage={errors.user_id} validationState={errors.user_id ? 'error' : 'none'}>
                  <Select value={draft.user_id} onChange={(_, d) => set('user_id')(d.value)} data-testid="field-user_id">
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
