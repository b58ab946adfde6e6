import type { PermissionRow, RoleListRow } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import { ROLES_NS } from './i18n';

/**
 * Writes the role list to an .xlsx file. write-excel-file is imported here, on click, so it
 * lands in its own chunk and never weighs on the list screen.
 */
export async function exportRoles(roles: RoleListRow[], catalogue: PermissionRow[]): Promise<void> {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  const t = (k: string) => i18n.t(`sheet.${k}`, { ns: ROLES_NS });
  const label = new Map(catalogue.map((p) => [p.name, p.label]));
  const header = ['name', 'description', 'permissions', 'users', 'list'].map((k) => ({ value: t(k), fontWeight: 'bold' as const }));
  const rows = roles.map((r) => [
    { value: r.name },
    { value: r.description },
    { value: r.permissions.length },
    { value: r.users_count },
    { value: r.permissions.map((p) => label.get(p.name) ?? p.name).join(', ') },
  ]);
  const date = new Date().toISOString().slice(0, 10);
  await writeXlsxFile([header, ...rows], { columns: [{ width: 24 }, { width: 40 }, { width: 10 }, { width: 12 }, { width: 80 }] }).toFile(`vai-tro-${date}.xlsx`);
}
