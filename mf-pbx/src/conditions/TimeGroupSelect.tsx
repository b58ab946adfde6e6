import { useMemo } from 'react';
import { Link as FluentLink } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PBX_RESOURCES, paths, type TimeGroup } from '@tongdai/contracts';
import { SelectField, useApiError } from '@tongdai/ui';
import { usePbxAll } from '../shared/pbx.api';
import { describeRange } from '../time-groups/timeRange';
import { CONDITIONS_NS } from './i18n';

const useTimeGroups = () => usePbxAll<TimeGroup>(PBX_RESOURCES.timeGroup);

/** A group's name in a list (all groups are fetched once and shared by every row). */
export function TimeGroupName({ id }: { id: number }) {
  const groups = useTimeGroups();
  const name = useMemo(() => groups.data?.find((g) => g.id === id)?.name, [groups.data, id]);
  return <span data-testid="row-time_group_id">{name ?? `#${id}`}</span>;
}

/** The time group of a condition; its ranges are spelled out under the select. */
export function TimeGroupSelect(p: { value: string; onChange: (v: string) => void; error?: string }) {
  const { t } = useTranslation(CONDITIONS_NS);
  const groups = useTimeGroups();
  const loadError = useApiError(groups.error);
  const chosen = groups.data?.find((g) => String(g.id) === p.value);
  return (
    <div>
      <SelectField name="time_group_id" label={t('fields.time_group_id')} required value={p.value} onChange={p.onChange}
        error={p.error ?? (loadError ? t('groupsFailed', { message: loadError.message }) : undefined)}
        options={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))} placeholder={t('chooseGroup')} />
      {chosen && <small data-testid="time-group-ranges">{chosen.ranges.map(describeRange).join('; ')}</small>}
      {groups.data?.length === 0 && (
        <small data-testid="no-groups">{t('noGroups')} <Link to={paths.timeGroup.add}><FluentLink as="span">{t('createGroup')}</FluentLink></Link></small>
      )}
    </div>
  );
}
