import { Body1, Caption1, Card, Spinner, Subtitle1, Switch, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { PERM, type OtpNumber } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { EmptyState, EntityListScreen } from '@tongdai/ui';
import { OTP_NS } from './i18n';
import { CreateKeyDialog, RevokeKey, RotateWebhookSecret } from './KeyDialogs';
import { otpKeyEntity, otpRequestEntity } from './voice-otp.entity';
import { useOtpNumbers, useSetOtpNumber } from './voice-otp.api';

/** /voice-otp/list: the requests the tenant's applications made, with their status. */
export const OtpList = () => <EntityListScreen entity={otpRequestEntity} />;

/** The tenant's hotlines and whether each places OTP calls (otp.manage switches it). */
function OtpNumbers() {
  const { t } = useTranslation(OTP_NS);
  const { can } = useCan();
  const numbers = useOtpNumbers();
  const set = useSetOtpNumber();
  const toggle = async (n: OtpNumber, on: boolean) => {
    try {
      await set.mutateAsync({ id: n.id, otp_enabled: on });
      notify('success', t(on ? 'numbers.on' : 'numbers.off', { number: n.number }));
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    }
  };
  return (
    <Card data-testid="otp-numbers">
      <Subtitle1 as="h2">{t('numbers.title')}</Subtitle1>
      <Caption1>{t('numbers.intro')}</Caption1>
      {numbers.isPending ? <Spinner size="tiny" /> : !numbers.data?.length ? <EmptyState message={t('numbers.empty')} /> : (
        <Table size="small" aria-label={t('numbers.title')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('numbers.number')}</TableHeaderCell>
              <TableHeaderCell>{t('numbers.switchboard')}</TableHeaderCell>
              <TableHeaderCell>{t('numbers.enabled')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {numbers.data.map((n) => (
              <TableRow key={n.id} data-testid="otp-number-row" data-number={n.number}>
                <TableCell><Body1>{n.number}</Body1></TableCell>
                <TableCell>{n.switchboard_name}</TableCell>
                <TableCell>
                  <Switch
                    checked={n.otp_enabled} disabled={!can(PERM.otp.manage) || set.isPending} aria-label={`${t('numbers.enabled')} ${n.number}`}
                    onChange={(_, d) => void toggle(n, d.checked)} data-testid="otp-number-switch"
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

/** /voice-otp/number: the hotlines that call, then the API keys (created with the key shown once, revoked from the row). */
export function OtpNumber() {
  const { can } = useCan();
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <OtpNumbers />
      {can(PERM.otp.manage) && (
        <EntityListScreen entity={otpKeyEntity} createDialog={(close) => <CreateKeyDialog close={close} />} rowActions={(k) => <><RotateWebhookSecret row={k} /><RevokeKey row={k} /></>} rowActionsWidth="260px" />
      )}
    </div>
  );
}
