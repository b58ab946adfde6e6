import { Caption1, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { auditChanges, auditValue, type AuditChange, type AuditEntry } from '@tongdai/contracts';
import { AUDIT_NS } from './i18n';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: '8px', padding: '4px 4px 8px' },
  value: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  before: { color: tokens.colorPaletteRedForeground1 },
  after: { color: tokens.colorPaletteGreenForeground1 },
  muted: { color: tokens.colorNeutralForeground3 },
  field: { fontWeight: tokens.fontWeightSemibold },
  stack: { display: 'flex', flexDirection: 'column', gap: '2px', padding: '4px 0' },
});

/** The items a list field gained and lost (a role's permissions, a campaign's agents). */
function listDiff(e: AuditEntry, field: string): { added: string[]; removed: string[] } | null {
  const [b, a] = [e.before?.[field], e.after?.[field]];
  if (!Array.isArray(b) || !Array.isArray(a)) return null;
  const key = (x: unknown) => JSON.stringify(x);
  const [bs, as] = [new Set(b.map(key)), new Set(a.map(key))];
  const text = (xs: unknown[]) => xs.map((x) => auditValue(x));
  return { added: text(a.filter((x) => !bs.has(key(x)))), removed: text(b.filter((x) => !as.has(key(x)))) };
}

function Value({ text, tone, secret }: { text: string; tone?: 'before' | 'after'; secret: boolean }) {
  const s = useStyles();
  const { t } = useTranslation(AUDIT_NS);
  if (secret) return <span className={s.muted}>{t('detail.secret')}</span>;
  if (!text) return <span className={s.muted}>{t('detail.empty')}</span>;
  return <span className={`${s.value} ${tone ? s[tone] : ''}`}>{text}</span>;
}

/**
 * One line of the log opened under its row: where it came from, and each field it is about with what
 * it was and what it became (a create shows what was set, a delete what there was); secrets only as
 * changed, lists with the items added and removed.
 */
export function AuditDetail({ entry }: { entry: AuditEntry }) {
  const s = useStyles();
  const { t } = useTranslation(AUDIT_NS);
  const changes = auditChanges(entry);
  const both = entry.action === 'update';
  const one = (c: AuditChange) => (entry.action === 'create' ? c.after : c.before);
  return (
    <div className={s.box} data-testid="audit-detail">
      <Caption1 className={s.muted}>{t('detail.where', { ip: entry.ip || '—', ua: entry.user_agent || '—' })}</Caption1>
      {changes.length === 0 ? <Text>{t('detail.nothing')}</Text> : (
        <Table size="small" aria-label={t('detail.title')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: '14em' }}>{t('detail.field')}</TableHeaderCell>
              {both ? (
                <>
                  <TableHeaderCell>{t('detail.before')}</TableHeaderCell>
                  <TableHeaderCell>{t('detail.after')}</TableHeaderCell>
                </>
              ) : <TableHeaderCell>{t('detail.value')}</TableHeaderCell>}
            </TableRow>
          </TableHeader>
          <TableBody>
            {changes.map((c) => {
              const diff = both && !c.secret ? listDiff(entry, c.field) : null;
              return (
                <TableRow key={c.field} data-testid={`audit-field-${c.field}`}>
                  <TableCell className={s.field}>{c.label}</TableCell>
                  {both ? (
                    <>
                      <TableCell data-testid="audit-before"><Value text={c.before} tone="before" secret={c.secret} /></TableCell>
                      <TableCell>
                        <div className={s.stack}>
                          <span data-testid="audit-after"><Value text={c.after} tone="after" secret={c.secret} /></span>
                          {diff && (diff.added.length > 0 || diff.removed.length > 0) && (
                            <Caption1 className={s.muted} data-testid="audit-list-diff">
                              {[diff.added.length ? t('detail.added', { items: diff.added.join(', ') }) : '', diff.removed.length ? t('detail.removed', { items: diff.removed.join(', ') }) : '']
                                .filter(Boolean).join(' · ')}
                            </Caption1>
                          )}
                        </div>
                      </TableCell>
                    </>
                  ) : <TableCell data-testid="audit-value"><Value text={one(c)} secret={c.secret} /></TableCell>}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
