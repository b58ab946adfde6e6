import { Suspense, lazy, useState } from 'react';
import { Body1, Button, Caption1, Card, Field, Input, Spinner, Subtitle1, Switch, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { CallRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { PERM, type OtpNumber } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { EmptyState, EntityListScreen, useUrlParams } from '@tongdai/ui';
import { OTP_NS } from './i18n';
import { CreateKeyDialog, RevokeKey, RotateWebhookSecret } from './KeyDialogs';
import { otpKeyEntity, otpRequestEntity } from './voice-otp.entity';
import { useOtpNumbers, useOtpStats, useOtpTestCall, useSetOtpNumber } from './voice-otp.api';

const OtpAnsweredChart = lazy(() => import('./OtpAnsweredChart'));

/** The answered rate of the list's dates and key (none: the last 30 days), and its chart per day. */
function OtpStatsCard() {
  const { t } = useTranslation(OTP_NS);
  const [params] = useUrlParams();
  const filters = Object.fromEntries(['preset', 'from', 'to', 'key_id'].flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : [])));
  const stats = useOtpStats(filters);
  if (!stats.data) return null;
  const { called, answered } = stats.data;
  const rate = called ? Math.round((answered / called) * 100) : null;
  return (
    <Card data-testid="otp-stats">
      <Body1 data-testid="otp-answered-rate">
        {rate === null ? t('stats.none') : t('stats.rate', { rate, answered, called })}
      </Body1>
      {called > 0 && (
        <Suspense fallback={<Spinner size="tiny" />}>
          <OtpAnsweredChart stats={stats.data} labels={{ answered: t('stats.answered'), unanswered: t('stats.unanswered'), title: t('stats.title') }} />
        </Suspense>
      )}
    </Card>
  );
}

/** /voice-otp/list: the requests the tenant's applications made, with their status; under them the answered rate per day. */
export const OtpList = () => (
  <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
    <EntityListScreen entity={otpRequestEntity} />
    <OtpStatsCard />
  </div>
);

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
              <TableHeaderCell>{t('numbers.rate')}</TableHeaderCell>
              <TableHeaderCell>{t('numbers.enabled')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {numbers.data.map((n) => (
              <TableRow key={n.id} data-testid="otp-number-row" data-number={n.number}>
                <TableCell><Body1>{n.number}</Body1></TableCell>
                <TableCell>{n.switchboard_name}</TableCell>
                <TableCell data-testid="otp-number-rate">
                  {n.called_30d ? t('numbers.rateValue', { rate: Math.round((n.answered_30d / n.called_30d) * 100), answered: n.answered_30d, called: n.called_30d }) : t('numbers.noCalls')}
                </TableCell>
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
      {can(PERM.otp.manage) && <TestCall ready={!!numbers.data?.some((n) => n.otp_enabled)} />}
    </Card>
  );
}

/**
 * "Gọi thử": a test OTP call to the number typed, through the enabled hotlines, as an application's
 * would go; the code it reads is shown, and the call appears on /voice-otp/list. The API's refusal
 * (a bad number, a limit, a blocked number) is said under the field.
 */
function TestCall({ ready }: { ready: boolean }) {
  const { t } = useTranslation(OTP_NS);
  const call = useOtpTestCall();
  const [phone, setPhone] = useState('');
  const [error, setError] = useState('');
  const run = async () => {
    setError('');
    try {
      const started = (await call.mutateAsync(phone)).data;
      notify('success', t('numbers.testStarted', { phone: started.phone, code: started.code }));
    } catch (e) {
      const err = await toApiError(e);
      setError(err.details?.[0]?.message ?? err.message);
    }
  };
  return (
    <form
      data-testid="otp-test-call" style={{ display: 'flex', gap: 8, alignItems: 'flex-end', flexWrap: 'wrap' }}
      onSubmit={(e) => { e.preventDefault(); void run(); }}
    >
      <Field label={t('numbers.testPhone')} validationMessage={error || (ready ? undefined : t('numbers.testNeedsNumber'))} validationState={error ? 'error' : 'none'}>
        <Input value={phone} onChange={(_, d) => setPhone(d.value)} placeholder={t('numbers.testPlaceholder')} inputMode="tel" data-testid="otp-test-phone" />
      </Field>
      <Button type="submit" appearance="primary" icon={<CallRegular />} disabled={!ready || !phone.trim() || call.isPending} data-testid="otp-test-start">{t('numbers.test')}</Button>
    </form>
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
