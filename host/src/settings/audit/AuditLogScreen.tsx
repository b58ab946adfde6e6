import { Button } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@tongdai/contracts';
import { EntityListScreen, useUrlParams } from '@tongdai/ui';
import { AuditDetail } from './AuditDetail';
import { auditEntity } from './audit.entity';
import { AUDIT_NS } from './i18n';

/** The line whose detail is open, kept in ?entry= (a reload or a shared link opens it again). */
function useOpenEntry() {
  const [params, setParams] = useUrlParams();
  const open = Number(params.get('entry')) || null;
  const toggle = (id: number) => setParams((p) => (open === id ? p.delete('entry') : p.set('entry', String(id))), { replace: true });
  return { open, toggle };
}

/** /setting/audit-log: who changed what, when and from where (issue 42). */
export function AuditLogScreen() {
  const { t } = useTranslation(AUDIT_NS);
  const { open, toggle } = useOpenEntry();
  const details = (r: AuditEntry) => (
    <Button size="small" appearance={open === r.id ? 'primary' : 'secondary'} aria-expanded={open === r.id} onClick={() => toggle(r.id)} data-testid="audit-open">
      {t(open === r.id ? 'detail.hide' : 'detail.show')}
    </Button>
  );
  return (
    <EntityListScreen
      entity={auditEntity}
      rowActions={details}
      rowActionsWidth="8em"
      rowDetail={(r) => open === r.id && <AuditDetail entry={r} />}
    />
  );
}
