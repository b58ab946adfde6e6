import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import { routes, SignupSchema, type SignupInput } from '@tongdai/contracts';
import { i18n, login, publicApi, toApiError } from '@tongdai/platform';
import { NS } from '../i18n';
import { loginCss } from '../login/login.css';
import { navigate } from '../location';
import { signupCss } from './signup.css';

type Field = keyof SignupInput;
const FIELDS: { name: Field; type?: string; autoComplete?: string; hint?: boolean }[] = [
  { name: 'company_name', autoComplete: 'organization' },
  { name: 'ma_dn', hint: true },
  { name: 'full_name', autoComplete: 'name' },
  { name: 'username', autoComplete: 'username' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'phone', type: 'tel', autoComplete: 'tel' },
  { name: 'password', type: 'password', autoComplete: 'new-password' },
  { name: 'password_confirmation', type: 'password', autoComplete: 'new-password' },
];
const BLANK = Object.fromEntries(FIELDS.map((f) => [f.name, ''])) as Record<Field, string>;

/** First message per field, from valibot issues or the API's details. */
function byField(list: { field: string | null; message: string }[]): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const { field, message } of list) if (field && !out[field as Field]) out[field as Field] = message;
  return out;
}

/** Public sign-up (SPEC §2 /signup). Plain markup like the login screen: no Fluent before login. */
export default function SignupScreen() {
  const { t } = useTranslation(NS, { i18n });
  const [values, setValues] = useState(BLANK);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = v.safeParse(SignupSchema, values);
    if (!parsed.success) {
      setErrors(byField(parsed.issues.map((i) => ({ field: v.getDotPath(i), message: i.message }))));
      return;
    }
    setBusy(true);
    setAlert(null);
    try {
      await publicApi('identity').post('signup', { json: parsed.output });
    } catch (err) {
      const body = await toApiError(err);
      if (body.details?.length) setErrors(byField(body.details));
      else setAlert(body.message);
      setBusy(false);
      return;
    }
    try {
      // Logged in at once with the credentials just chosen; HostRoot then leaves /signup.
      await login(parsed.output.ma_dn, parsed.output.username, parsed.output.password);
      navigate(routes.dashboard(), { replace: true });
    } catch (err) {
      setAlert((await toApiError(err)).message);
      setBusy(false);
    }
  };

  const field = ({ name, type = 'text', autoComplete, hint }: (typeof FIELDS)[number]) => (
    <div className="td-field" key={name}>
      <label htmlFor={`signup-${name}`}>{t(`signup.${name}`)}</label>
      <input
        id={`signup-${name}`} name={name} type={type} autoComplete={autoComplete} value={values[name]}
        aria-invalid={!!errors[name]} data-testid={`signup-${name.replace(/_/g, '-')}`}
        onChange={(e) => { setValues({ ...values, [name]: e.target.value }); setErrors({ ...errors, [name]: undefined }); }}
      />
      {hint && !errors[name] && <span className="td-field__hint">{t(`signup.${name}Hint`)}</span>}
      {errors[name] && <span className="td-field__error" data-testid={`signup-error-${name.replace(/_/g, '-')}`}>{errors[name]}</span>}
    </div>
  );

  return (
    <main className="td-login">
      <style>{loginCss + signupCss}</style>
      <form className="td-login__card td-signup" onSubmit={(e) => void submit(e)} noValidate data-testid="signup-form">
        <p className="td-login__brand">{t('product')}</p>
        <p className="td-login__sub">{t('signup.subtitle')}</p>
        <h1>{t('signup.title')}</h1>
        {alert && <div className="td-alert" role="alert" data-testid="signup-alert">{alert}</div>}
        <div className="td-signup__grid">{FIELDS.map(field)}</div>
        <button className="td-button" type="submit" disabled={busy} data-testid="signup-submit">
          {busy ? t('signup.submitting') : t('signup.submit')}
        </button>
        <p className="td-login__switch">
          <a href={routes.login()} data-testid="login-link" onClick={(e) => { e.preventDefault(); navigate(routes.login()); }}>{t('signup.loginLink')}</a>
        </p>
      </form>
    </main>
  );
}
