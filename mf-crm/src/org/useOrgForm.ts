import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify, toApiError } from '@tongdai/platform';
import { useOrgOne, useSaveOrg } from './org.api';
import type { OrgEntity } from './org.entities';
import { ORG_NS } from './org.i18n';
import { useEntityForm } from './useEntityForm';

/**
 * Load (when editing), validate, save, and map the API's field errors back under the fields.
 * Shared by the page forms and the groups dialog. `submit` resolves true when saved.
 */
export function useOrgForm(entity: OrgEntity<any>, id: number | null) {
  const { t } = useTranslation(ORG_NS);
  const existing = useOrgOne<Record<string, unknown>>(entity.api, id);
  const save = useSaveOrg(entity.api, id);
  const form = useEntityForm(entity, existing.data);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (): Promise<boolean> => {
    setFormError(null);
    const input = form.validate();
    if (!input) return false;
    try {
      await save.mutateAsync(input);
      notify('success', id === null ? t(`${entity.key}.created`) : t('updated'));
      return true;
    } catch (e) {
      const body = await toApiError(e);
      if (body.details?.length) form.setErrors(Object.fromEntries(body.details.map((d) => [d.field, d.message])));
      setFormError(body.message);
      return false;
    }
  };

  return { existing, form, submit, formError, saving: save.isPending, reset: () => setFormError(null) };
}
