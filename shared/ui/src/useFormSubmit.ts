import { useState } from 'react';
import { notify, toApiError } from '@tongdai/platform';

/**
 * A refusal the screen finds itself before anything is sent (e.g. no account seat left): thrown
 * from `save`, its Vietnamese message is shown above the form like the API's.
 */
export class FormRefusal extends Error {}

/**
 * Submitting a validated form: the API's field details go back under their fields, its message
 * (a loop, an in-use refusal…) above the form, and a success toast (none when `successMessage`
 * gives null: the screen shows the outcome itself). `submit` resolves true once saved.
 */
export function useFormSubmit<I>(form: { validate(): I | null; setErrors(errors: Record<string, string>): void }, save: (input: I) => Promise<unknown>, successMessage: () => string | null) {
  const [formError, setFormError] = useState<string | null>(null);
  const submit = async (): Promise<boolean> => {
    setFormError(null);
    const input = form.validate();
    if (!input) return false;
    try {
      await save(input);
      const done = successMessage();
      if (done !== null) notify('success', done);
      return true;
    } catch (e) {
      if (e instanceof FormRefusal) {
        setFormError(e.message);
        return false;
      }
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])));
      setFormError(body.message);
      return false;
    }
  };
  return { submit, formError, reset: () => setFormError(null) };
}
