import { useState } from 'react';
import { notify, toApiError } from '@tongdai/platform';

/**
 * Submitting a validated form: the API's field details go back under their fields, its message
 * (a loop, an in-use refusal…) above the form, and a success toast. `submit` resolves true once saved.
 */
export function useFormSubmit<I>(form: { validate(): I | null; setErrors(errors: Record<string, string>): void }, save: (input: I) => Promise<unknown>, successMessage: () => string) {
  const [formError, setFormError] = useState<string | null>(null);
  const submit = async (): Promise<boolean> => {
    setFormError(null);
    const input = form.validate();
    if (!input) return false;
    try {
      await save(input);
      notify('success', successMessage());
      return true;
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])));
      setFormError(body.message);
      return false;
    }
  };
  return { submit, formError, reset: () => setFormError(null) };
}
