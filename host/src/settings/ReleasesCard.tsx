import { Badge, Card, CardHeader, Subtitle2, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { NS } from '../i18n';
import { RELEASE } from '../shell/release';
import { remotes$, type RemoteState } from '../shell/remotes';
import { useBehavior } from '../shell/useObservable';

const BADGE: Record<RemoteState['status'], 'success' | 'warning' | 'danger' | 'informative'> = { ready: 'success', incompatible: 'warning', error: 'danger', loading: 'informative' };

/**
 * Which release of each area this page runs (ADR 0053): the host's own, then each remote's as its
 * release.json says — what support asks first, and what a promotion or a rollback changes at the next load.
 */
export function ReleasesCard() {
  const { t } = useTranslation(NS);
  const remotes = useBehavior(remotes$);
  return (
    <Card data-testid="releases">
      <CardHeader header={<Subtitle2>{t('settings.releases.title')}</Subtitle2>} />
      <Table size="small" aria-label={t('settings.releases.title')}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t('settings.releases.area')}</TableHeaderCell>
            <TableHeaderCell>{t('settings.releases.version')}</TableHeaderCell>
            <TableHeaderCell>{t('settings.releases.state')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableRow data-testid="release-host">
            <TableCell>{t('settings.releases.host')}</TableCell>
            <TableCell data-testid="release-version">{RELEASE}</TableCell>
            <TableCell><Badge appearance="tint" color="success">{t('settings.releases.states.ready')}</Badge></TableCell>
          </TableRow>
          {remotes.map((r) => (
            <TableRow key={r.id} data-testid={`release-${r.id}`}>
              <TableCell>{t(`remotes.${r.id}`, { defaultValue: r.id })}</TableCell>
              <TableCell data-testid="release-version">{(r.status === 'ready' || r.status === 'incompatible') && r.release ? r.release.version : '—'}</TableCell>
              <TableCell><Badge appearance="tint" color={BADGE[r.status]} data-testid="release-state">{t(`settings.releases.states.${r.status}`)}</Badge></TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
