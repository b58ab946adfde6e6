import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '@tongdai/ui';
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
  const { submit, formError, reset } = useFormSubmit(form, (input) => save.mutateAsync(input), () => (id === null ? t(`${entity.key}.created`) : t('updated')));
  return { existing, form, submit, formError, saving: save.isPending, reset };
}
