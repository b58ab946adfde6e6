import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MSG, routes } from '@tongdai/contracts/lean';
import { flash, i18n, login, toApiError } from '@tongdai/platform';
import { NS } from '../i18n';
import { loginCss } from './login.css';
import { navigate } from '../location';

type Field = 'maDn' | 'username' | 'password';

export function LoginScreen() {
  const { t } = useTranslation(NS, { i18n });
  const [values, setValues] = useState<Record<Field, string>>({ maDn: '', username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [alert, setAlert] = useState<string | null>(() => flash.take());
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing = (Object.keys(values) as Field[]).filter((k) => !values[k].trim());
    setErrors(Object.fromEntries(missing.map((k) => [k, MSG.required])));
    if (missing.length) return;
    setBusy(true);
    setAlert(null);
    // Read before the login: once the session starts, the host itself may already have moved on to it.
    const next = routes.afterLogin(window.location.search);
    try {
      await login(values.maDn.trim(), values.username.trim(), values.password);
      navigate(next, { replace: true });
    } catch (err) {
      setAlert((await toApiError(err)).message);
      setBusy(false);
    }
  };

  const field = (name: Field, type = 'text', autoComplete?: string) => (
    <div className="td-field">
      <label htmlFor={`login-${name}`}>{t(`login.${name}`)}</label>
      <input
        id={`login-${name}`} name={name} type={type} autoComplete={autoComplete} value={values[name]}
        aria-invalid={!!errors[name]} data-testid={`login-${name}`}
        onChange={(e) => { setValues({ ...values, [name]: e.target.value }); setErrors({ ...errors, [name]: undefined }); }}
      />
      {errors[name] && <span className="td-field__error">{errors[name]}</span>}
    </div>
  );

  return (
    <main className="td-login">
      <style>{loginCss}</style>
      <form className="td-login__card" onSubmit={(e) => void submit(e)} noValidate data-testid="login-form">
        <p className="td-login__brand">{t('product')}</p>
        <p className="td-login__sub">{t('login.subtitle')}</p>
        <h1>{t('login.title')}</h1>
        {alert && <div className="td-alert" role="alert" data-testid="login-alert">{alert}</div>}
        {field('maDn', 'text', 'organization')}
        {field('username', 'text', 'username')}
        {field('password', 'password', 'current-password')}
        <button className="td-button" type="submit" disabled={busy} data-testid="login-submit">
          {busy ? t('login.submitting') : t('login.submit')}
        </button>
        <p className="td-login__switch">
          <a href={routes.signup()} data-testid="signup-link" onClick={(e) => { e.preventDefault(); navigate(routes.signup()); }}>{t('login.signupLink')}</a>
        </p>
      </form>
    </main>
  );
}
