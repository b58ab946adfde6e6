import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { Badge, Button, Card, Field, MessageBar, MessageBarBody, Spinner, Switch, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { CallRegular } from '@fluentui/react-icons';
import {
  AGENT_RESULTS, CONTACT_RESULT_LABELS, DECREE91_MESSAGES, DIALER_CALL_STATE_LABELS, WORK_MSG, campaignWorkApi, fillScript, isDialerMode, paths, type AgentResult, type CampaignFamily,
  type NoContactReason, type SurveyAnswerValue, type WorkContact, type WorkNext,
} from '@tongdai/contracts';
import { notify, requestDial, toApiError } from '@tongdai/platform';
import { AppLink, DateField, ErrorState, formatViDateTime, LoadingState, TimeField, usePhoneReady } from '@tongdai/ui';
import { ConsentInForce } from '../dnc/ConsentInForce';
import { NS } from '../i18n';
import { SurveyForm, type SurveyAnswers } from '../surveys/SurveyForm';
import { LEASE_RENEW_MS, placeCall, renewLease, saveAnswer, useReady, useRefreshWork, useSetReady, useSetResult, useWorkNext } from './work.api';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'minmax(260px, 1fr) minmax(320px, 2fr)', gap: '16px', alignItems: 'start', padding: '16px' },
  column: { display: 'flex', flexDirection: 'column', gap: '12px' },
  row: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  script: { whiteSpace: 'pre-wrap', lineHeight: tokens.lineHeightBase400 },
  muted: { color: tokens.colorNeutralForeground3 },
  history: { margin: 0, paddingLeft: '18px' },
});

/** Answers are saved this long after the agent stops typing (and on leaving the field's question). */
const AUTOSAVE_MS = 600;
const time = (iso: string) => formatViDateTime(iso, { seconds: false });
/** Why a progressive campaign has no call for the agent, when the server sends no sentence of its own. */
const NO_CALL_MESSAGES: Record<NoContactReason, string> = {
  waiting: WORK_MSG.waiting, not_ready: WORK_MSG.notReady, no_extension: WORK_MSG.noExtension, outside_window: WORK_MSG.outsideWindow, empty: WORK_MSG.empty,
};

/**
 * /survey/campaign/start/:id — the agent's working screen (preview mode, issue 33): the contact the
 * server handed out, the script filled in, the questions answered and saved as typed, "Gọi" checked
 * by the server under Decree 91 and placed by the persistent softphone, and the result that brings
 * the next contact. A marketing campaign opens with ?family=marketing.
 * Progressive mode (issue 34): no "Gọi"; the agent says they are ready, the server dials a contact
 * for them and its answered call rings (and is answered by) the softphone; the screen follows the
 * call and, once it ended, takes the result as in preview, then waits for the next call.
 */
export default function WorkScreen() {
  const id = Number(useParams().id);
  const family: CampaignFamily = useSearchParams()[0].get('family') === 'marketing' ? 'marketing' : 'survey';
  const work = useWorkNext(family, id);
  if (work.isPending) return <LoadingState />;
  if (work.isError) return <WorkError error={work.error} />;
  return <Working family={family} id={id} work={work.data} />;
}

function WorkError({ error }: { error: unknown }) {
  const [message, setMessage] = useState('');
  useEffect(() => void toApiError(error).then((e) => setMessage(e.message)), [error]);
  return <ErrorState message={message} />;
}

function Working({ family, id, work }: { family: CampaignFamily; id: number; work: WorkNext }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const refresh = useRefreshWork(family, id);
  const { campaign, contact } = work;
  const progressive = isDialerMode(campaign.mode);
  return (
    <div className={s.column}>
      <div className={s.row} style={{ padding: '16px 16px 0' }}>
        <Title2 as="h1">{campaign.name}</Title2>
        <Badge appearance="tint">{t('work.hotline', { number: campaign.hotline_number })}</Badge>
        {progressive && <ReadySwitch family={family} id={id} />}
      </div>
      {contact ? (
        <ContactWork key={contact.id} family={family} work={work} contact={contact} />
      ) : progressive ? (
        <NoCall work={work} onCheck={() => void refresh()} />
      ) : (
        <div style={{ padding: '0 16px' }}>
          <MessageBar intent="info" data-testid="work-empty"><MessageBarBody>{work.message}</MessageBarBody></MessageBar>
          <Button style={{ marginTop: '12px' }} onClick={() => void refresh()}>{t('work.next')}</Button>
        </div>
      )}
    </div>
  );
}

/** A progressive campaign's agent takes the dialer's calls or pauses (a new agent starts paused). */
function ReadySwitch({ family, id }: { family: CampaignFamily; id: number }) {
  const { t } = useTranslation(NS);
  const state = useReady(family, id, true);
  const set = useSetReady(family, id);
  const ready = state.data?.ready ?? false;
  const toggle = async (on: boolean) => {
    try {
      await set.mutateAsync(on);
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    }
  };
  return (
    <Switch checked={ready} disabled={!state.data || set.isPending} onChange={(_, d) => void toggle(d.checked)}
      label={t(ready ? 'work.ready' : 'work.paused')} data-testid="work-ready" />
  );
}

/** No call for the agent now: the dialer is calling for them (a spinner), or why not. */
function NoCall({ work, onCheck }: { work: WorkNext; onCheck: () => void }) {
  const { t } = useTranslation(NS);
  const reason = work.reason ?? 'empty';
  return (
    <div style={{ padding: '0 16px' }}>
      {reason === 'waiting' ? (
        <MessageBar intent="info" data-testid="work-waiting">
          <MessageBarBody><Spinner size="tiny" labelPosition="after" label={WORK_MSG.waiting} /></MessageBarBody>
        </MessageBar>
      ) : (
        <MessageBar intent={reason === 'no_extension' ? 'warning' : 'info'} data-testid="work-empty"><MessageBarBody>{work.message || NO_CALL_MESSAGES[reason]}</MessageBarBody></MessageBar>
      )}
      {/* Paused: the switch is the way on. Otherwise the agent may look again (the window opens, contacts are added). */}
      {reason !== 'waiting' && reason !== 'not_ready' && <Button style={{ marginTop: '12px' }} onClick={onCheck} data-testid="work-check">{t('work.checkAgain')}</Button>}
    </div>
  );
}

function ContactWork({ family, work, contact }: { family: CampaignFamily; work: WorkNext; contact: WorkContact }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const { campaign } = work;
  const progressive = isDialerMode(campaign.mode);
  const dialer = progressive ? contact.dialer ?? null : null;
  const ready = usePhoneReady();
  const result = useSetResult(family, campaign.id);
  const [answers, setAnswers] = useState<SurveyAnswers>(() => Object.fromEntries(Object.entries(contact.answers).map(([k, a]) => [k, a.value])));
  const [refusal, setRefusal] = useState<string | null>(null);
  const [callbackDay, setCallbackDay] = useState('');
  const [callbackTime, setCallbackTime] = useState('');
  // The browser's local time, as the native datetime-local it replaces.
  const callbackAt = callbackDay && callbackTime ? `${callbackDay}T${callbackTime}` : '';
  const [error, setError] = useState<string | null>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const pending = useRef(new Map<string, SurveyAnswerValue>());

  // The lease: renewed while this contact is on screen; a closed tab stops renewing and the contact returns to the pool.
  useEffect(() => {
    const t = setInterval(() => void renewLease(family, campaign.id, contact.id).catch(() => undefined), LEASE_RENEW_MS);
    return () => clearInterval(t);
  }, [family, campaign.id, contact.id]);

  /** Sends an answer still waiting for its debounce; `keepalive` when the page is going away. */
  const flush = async (key: string, keepalive = false) => {
    clearTimeout(timers.current.get(key));
    timers.current.delete(key);
    if (!pending.current.has(key)) return;
    const value = pending.current.get(key)!;
    pending.current.delete(key);
    try {
      await saveAnswer(family, campaign.id, contact.id, { question_id: Number(key), value }, { keepalive });
    } catch (e) {
      if (!keepalive) setError((await toApiError(e)).message);
    }
  };
  const flushAll = (keepalive = false) => Promise.all([...pending.current.keys()].map((k) => flush(k, keepalive)));
  // Leaving the page (a reload, a closed tab) sends what is still waiting with keepalive, so the request
  // outlives the page; leaving the screen inside the app (unmount) sends it as usual.
  useEffect(() => {
    const out = () => void flushAll(true);
    window.addEventListener('pagehide', out);
    return () => {
      window.removeEventListener('pagehide', out);
      void flushAll();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onAnswer = (key: string, value: SurveyAnswerValue) => {
    setAnswers((a) => ({ ...a, [key]: value }));
    pending.current.set(key, value);
    clearTimeout(timers.current.get(key));
    timers.current.set(key, setTimeout(() => void flush(key), AUTOSAVE_MS));
  };

  // The dialer's call is still on: the result comes once it ended (the server then dials the next one).
  const onCall = !!dialer && dialer.state !== 'ended';
  const questions = useMemo(() => campaign.questions.map((q) => ({ ...q, key: String(q.id) })), [campaign.questions]);
  const script = campaign.script ? fillScript(campaign.script, contact) : '';

  const call = async () => {
    setRefusal(null);
    try {
      const decision = await placeCall(family, campaign.id, contact.id);
      if (!decision.allowed) setRefusal(decision.message || DECREE91_MESSAGES[decision.reason]);
      else requestDial({ kind: 'campaign', dialPath: campaignWorkApi(family).dial(campaign.id, contact.id), display: contact.phone });
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    }
  };

  const end = async (code: AgentResult) => {
    setError(null);
    if (code === 'callback' && !callbackAt) return setError(t('work.chooseCallbackAt'));
    await flushAll();
    try {
      await result.mutateAsync({ contactId: contact.id, input: { result: code, callback_at: code === 'callback' ? new Date(callbackAt).toISOString() : null } });
      notify('success', t('work.saved', { label: CONTACT_RESULT_LABELS[code] }));
    } catch (e) {
      setError((await toApiError(e)).message);
    }
  };

  return (
    <div className={s.page}>
      <div className={s.column}>
        <Card data-testid="work-contact">
          <Text weight="semibold" size={500}>{contact.name || t('work.noName')}</Text>
          <Text data-testid="work-phone">{contact.phone}</Text>
          {contact.callback && <Badge color="warning">{t('work.callback')}</Badge>}
          {contact.consent && <ConsentInForce consent={contact.consent} />}
          {contact.customer && <AppLink to={paths.customer.edit(contact.customer.id)}>{t('work.customerCard', { name: contact.customer.code || contact.customer.name })}</AppLink>}
          {Object.entries(contact.fields).map(([k, x]) => <Text key={k} size={200}>{`${k}: ${x}`}</Text>)}
          {dialer && (
            <div className={s.row} data-testid="work-dialer-state">
              {/* Waiting on the line (ringing, being connected); a conversation is not "loading". */}
              {(dialer.state === 'calling' || dialer.state === 'answered') && <Spinner size="extra-tiny" />}
              <Text weight="semibold">{DIALER_CALL_STATE_LABELS[dialer.state]}</Text>
            </div>
          )}
          {!progressive && (
            <Button appearance="primary" icon={<CallRegular />} disabled={!!refusal} onClick={() => void call()} data-testid="work-call" title={ready ? undefined : t('work.phoneNotReady')}>
              {t('work.call')}
            </Button>
          )}
          {refusal && <MessageBar intent="error" data-testid="work-refusal"><MessageBarBody>{refusal}</MessageBarBody></MessageBar>}
        </Card>
        <Card>
          <Text weight="semibold">{t('work.history', { n: contact.history.length })}</Text>
          {contact.history.length ? (
            <ul className={s.history}>
              {contact.history.map((h) => (
                <li key={h.id}>{`${time(h.started_at)} · ${h.agent_name ?? ''} · ${h.result ? CONTACT_RESULT_LABELS[h.result] : h.refusal ? DECREE91_MESSAGES[h.refusal] : t('work.calling')}`}</li>
              ))}
            </ul>
          ) : <Text className={s.muted}>{t('work.neverCalled')}</Text>}
        </Card>
      </div>
      <div className={s.column}>
        {script && <Card><Text weight="semibold">{t('work.script')}</Text><Text className={s.script} data-testid="work-script">{script}</Text></Card>}
        {questions.length > 0 && <Card><SurveyForm questions={questions} answers={answers} onAnswer={onAnswer} /></Card>}
        <Card>
          <Text weight="semibold">{t('work.result')}</Text>
          <div className={s.row}>
            <Field label={t('work.callbackAt')}>
              <DateField value={callbackDay} onChange={setCallbackDay} data-testid="work-callback-at" />
            </Field>
            <Field label={t('work.callbackTime')}>
              <TimeField value={callbackTime} onChange={setCallbackTime} data-testid="work-callback-time" />
            </Field>
          </div>
          <div className={s.row}>
            {AGENT_RESULTS.map((code) => (
              <Button key={code} disabled={result.isPending || onCall} title={onCall ? t('work.resultAfterCall') : undefined} onClick={() => void end(code)} data-testid={`work-result-${code}`}>
                {CONTACT_RESULT_LABELS[code]}
              </Button>
            ))}
          </div>
          {error && <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>}
        </Card>
      </div>
    </div>
  );
}
