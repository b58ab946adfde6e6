import { useMemo, useState } from 'react';
import { Checkbox, Input, MessageBar, MessageBarBody, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { PermissionRow } from '@tongdai/contracts';
import { registerFieldKind, type FieldControlProps, type FieldDef } from '@tongdai/ui';
import { ROLES_NS } from './i18n';
import { usePermissions } from './roles.api';

/** A role's permission names, as the kit's field kind "permissions" (the matrix over GET /permissions). */
declare module '@tongdai/ui' {
  interface FieldKindOptions {
    permissions: object;
  }
}

const useStyles = makeStyles({
  wrap: { display: 'flex', flexDirection: 'column', gap: '12px', gridColumn: '1 / -1' },
  head: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: '12px' },
  group: { border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, padding: '8px 12px', display: 'flex', flexDirection: 'column' },
  groupHead: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, marginBottom: '4px', fontWeight: tokens.fontWeightSemibold },
});

/** Vietnamese search without diacritics: "khach" finds "Khách hàng". */
const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/gi, 'd').toLowerCase();
/** permission name → kebab-case test id: "role.changePassword" → "perm-role-changepassword". */
export const permTestId = (name: string) => `perm-${name.replace(/\./g, '-').toLowerCase()}`;

/** The permissions of a role, grouped by product area, with "select all" per group and a search box. */
export function PermissionMatrix(p: { catalogue: PermissionRow[]; value: string[]; onChange: (next: string[]) => void; disabled?: boolean }) {
  const s = useStyles();
  const { t } = useTranslation(ROLES_NS);
  const [query, setQuery] = useState('');
  const groups = useMemo(() => {
    const q = fold(query.trim());
    const map = new Map<string, PermissionRow[]>();
    for (const perm of p.catalogue) {
      if (q && !fold(`${perm.group} ${perm.label} ${perm.name}`).includes(q)) continue;
      map.set(perm.group, [...(map.get(perm.group) ?? []), perm]);
    }
    return [...map];
  }, [p.catalogue, query]);
  const chosen = new Set(p.value);
  const toggle = (names: string[], on: boolean) => {
    const next = new Set(chosen);
    for (const n of names) (on ? next.add(n) : next.delete(n));
    p.onChange(p.catalogue.map((c) => c.name).filter((n) => next.has(n)));
  };

  return (
    <div className={s.wrap} data-testid="permission-matrix">
      <div className={s.head}>
        <Text weight="semibold">{t('matrix.title')}</Text>
        <Text data-testid="permission-count">{t('matrix.selected', { count: chosen.size, total: p.catalogue.length })}</Text>
        <Input value={query} onChange={(_, d) => setQuery(d.value)} placeholder={t('matrix.search')} aria-label={t('matrix.search')} data-testid="permission-search" />
      </div>
      {groups.length === 0 && <Text>{t('matrix.noMatch')}</Text>}
      <div className={s.grid}>
        {groups.map(([group, perms]) => {
          const on = perms.filter((x) => chosen.has(x.name)).length;
          return (
            <fieldset key={group} className={s.group} data-testid="permission-group">
              <legend className={s.groupHead}>
                <Checkbox
                  label={group}
                  aria-label={t('matrix.selectAll', { group })}
                  checked={on === 0 ? false : on === perms.length ? true : 'mixed'}
                  disabled={p.disabled}
                  onChange={(_, d) => toggle(perms.map((x) => x.name), d.checked === true)}
                  data-testid="select-all-group"
                />
              </legend>
              {perms.map((x) => (
                <Checkbox key={x.name} label={x.label} checked={chosen.has(x.name)} disabled={p.disabled} onChange={(_, d) => toggle([x.name], d.checked === true)} data-testid={permTestId(x.name)} />
              ))}
            </fieldset>
          );
        })}
      </div>
    </div>
  );
}

/** The matrix as a form field: the catalogue from GET /permissions, the schema's message below it. */
function PermissionsControl({ value, onChange, error }: FieldControlProps<Extract<FieldDef, { kind: 'permissions' }>, string[]>) {
  const catalogue = usePermissions().data ?? [];
  return (
    <>
      <PermissionMatrix catalogue={catalogue} value={value} onChange={onChange} />
      {error && <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>}
    </>
  );
}

// A role detail lists its permissions as rows ({ name, … }); the draft holds their names.
registerFieldKind('permissions', {
  Control: PermissionsControl, wide: true,
  toDraft: (x) => (Array.isArray(x) ? x.map((p) => (typeof p === 'string' ? p : String((p as { name: string }).name))) : []),
});
