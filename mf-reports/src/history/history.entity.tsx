import * as v from 'valibot';
import { Badge, Text } from '@fluentui/react-components';
import { FEATURES, PERM, REPORT_DIRECTIONS, REPORT_PATH_LABELS, CALL_RESULTS, SWITCHBOARD_CARRIER_NAMES, listPaths, routes, screens, type CallReportRow, type CallResult } from '@tongdai/contracts';
import { AppLink, CallButton, defineEntity, formatDuration, formatViDay, formatViTime, type EntityColumn, type EntityFilter } from '@tongdai/ui';
import { NS } from '../i18n';
import { callHistoryApi, hotlineCallsApi, successCallsApi, useHistoryOptions } from './history.api';
import { directionFilter, hotlineFilter, orgFilters, rangeFilter, resultFilter } from './filters';
import { RecordingCell } from './recording/RecordingCell';

const COLOR: Record<CallResult, 'success' | 'warning' | 'danger' | 'informative'> = {
  answered: 'success', voicemail: 'informative', auto: 'informative', no_answer: 'warning', busy: 'warning', failed: 'danger', blocked: 'danger',
};
// Vietnam time whatever the browser's zone; the date over the time so the narrow column shows both.
const twoLines = (top: string, bottom: string, testId?: string) => (
  <span style={{ display: 'flex', flexDirection: 'column' }} data-testid={testId} title={`${top} ${bottom}`}>
    <span>{top}</span>
    {bottom && <Text size={200}>{bottom}</Text>}
  </span>
);

/** Wide enough for a whole number (+84 and eleven digits, or masked): a number cut short is no use. */
const NUMBER = '9.5em';

const columns: EntityColumn<CallReportRow>[] = [
  // "23:21:14" over "24/11/2026", never cut (the hotline list's extra columns squeeze the others).
  { key: 'started_at', header: 'started_at', width: '6.5em', render: (r) => twoLines(formatViTime(r.started_at, { seconds: true }), formatViDay(r.started_at), 'call-time') },
  { key: 'direction', header: 'direction', width: '5em', render: (r) => <span data-testid="call-direction">{REPORT_DIRECTIONS[r.direction]}</span> },
  { key: 'caller', header: 'caller', width: NUMBER, render: (r) => <span data-testid="call-caller">{r.caller}</span> },
  { key: 'callee', header: 'callee', width: NUMBER, render: (r) => <span data-testid="call-callee">{r.callee}</span> },
  { key: 'did', header: 'did', width: NUMBER, render: (r) => r.did || '—' },
  { key: 'path', header: 'path', render: (r) => (r.path.length ? r.path.map((n) => `${REPORT_PATH_LABELS[n.type]}: ${n.name}`).join(' → ') : '—') },
  {
    key: 'answered_by', header: 'answered_by',
    render: (r) => (r.answered_by ? twoLines(r.answered_by.extension, r.answered_by.name, 'call-answered-by') : <span data-testid="call-answered-by">—</span>),
  },
  { key: 'wait', header: 'wait', render: (r) => formatDuration(r.wait) },
  { key: 'billsec', header: 'billsec', render: (r) => <span data-testid="call-talk">{formatDuration(r.billsec)}</span> },
  // Play (the player opens under the row) and download: two icon buttons, and no more room taken from the others.
  { key: 'recording', header: 'recording', width: '5.5em', render: (r) => <RecordingCell recording={r.recording} voicemail={r.voicemail} /> },
  {
    key: 'result', header: 'result', width: '7.5em',
    render: (r) => (
      <span title={r.reason || undefined}>
        <Badge style={{ whiteSpace: 'nowrap' }} appearance="tint" color={COLOR[r.result]} data-testid="call-result">{CALL_RESULTS[r.result]}</Badge>
        {r.reason && <Text size={200} block data-testid="call-reason">{r.reason}</Text>}
      </span>
    ),
  },
  {
    key: 'customer', header: 'customer',
    render: (r) => (r.customer ? <AppLink to={routes.customer.edit(r.customer.id)} testId="call-customer">{r.customer.name} ({r.customer.phone})</AppLink> : '—'),
  },
];

/** A report is read-only: it lists, with no form, no add, edit or delete. */
const history = (key: string, prefix: string, list: string, api: typeof callHistoryApi, filters: EntityFilter[], shown = columns) =>
  defineEntity<CallReportRow>({
    key, ns: NS, prefix, paths: listPaths(list), permission: { view: PERM.general }, feature: FEATURES.report,
    schema: v.object({}), fields: [], api, rowName: (r) => r.caller, columns: shown, filters,
  });

/** The outside party of a row as shown (masked where the tenant hides numbers); the other extension of an internal call. */
const otherParty = (r: CallReportRow) => (r.direction === 'inbound' ? r.caller : r.callee);
/** Click-to-call from a row (issue 15): the softphone asks the API for the number of this call's other party. */
export const callBack = (r: CallReportRow) => <CallButton request={{ kind: 'call', callId: r.id, display: otherParty(r) }} display={otherParty(r)} />;

/** The carrier of a row's hotline, from the tenant's hotlines (the filter's choices). */
function HotlineCarrier({ did }: { did: string | null }) {
  const line = useHistoryOptions()?.hotlines.find((h) => h.number === did);
  return <span data-testid="call-carrier">{line ? SWITCHBOARD_CARRIER_NAMES[line.carrier] : '—'}</span>;
}

/** /call-history: every call the viewer may see (the API scopes an agent to their own extension). */
export const callHistoryEntity = history('call-history', 'callHistory', screens.callHistory, callHistoryApi, [rangeFilter, directionFilter, resultFilter, ...orgFilters]);
/** /history-success-call: answered calls only, the same columns and filters but the result. */
export const successCallsEntity = history('success-calls', 'successCalls', screens.historySuccessCall, successCallsApi, [rangeFilter, directionFilter, ...orgFilters]);

/**
 * /etelecom/call-history: calls through each hotline — the call history's rows and filters (the
 * same read model and scope) with the hotline first, its carrier, and a hotline filter.
 */
export const hotlineCallsEntity = history('hotline-calls', 'hotlineCalls', screens.etelecomCallHistory, hotlineCallsApi, [rangeFilter, hotlineFilter, directionFilter, resultFilter], [
  columns[0],
  { key: 'hotline', header: 'hotline', width: NUMBER, render: (r) => <strong data-testid="call-hotline">{r.did || '—'}</strong> },
  { key: 'carrier', header: 'carrier', render: (r) => <HotlineCarrier did={r.did} /> },
  ...columns.filter((c) => c.key !== 'started_at' && c.key !== 'did' && c.key !== 'path'),
]);
