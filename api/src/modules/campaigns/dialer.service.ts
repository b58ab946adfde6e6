import {
  CONTACT_LEASE_SEC, asAsked, answerProblem, nationalForm, type ContactResult, type DialerOutcome, type QuestionAsAsked, type SurveyAnswerValue, type VoiceAnswer,
  type VoiceQuestionKind,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import type { DialerFiguresMoved } from './dialer-live.service';
import { placedCallsDue } from '../../db/due-signal';
import { phoneMasker } from '../settings/settings.service';
import { askableByVoice } from './campaigns.service';
import { checkAndClaim } from './decree91.service';
import { ABANDON_AFTER_S, estimate, pace, type Floor } from '../dialer';
import * as repo from './work.repository';
import { inWindow, releaseAfter } from './work.service';

/**
 * The campaign dialer's progressive mode (issue 34, ADR 0055): one call for each agent ready on a
 * running progressive campaign's working screen. Its "jobs" are the preview mode's rows (ADR 0050):
 * the contact is handed out to the agent by THE hand-out statement (`for update skip locked`), Decree
 * 91 is checked and claimed, and the attempt is written as a dialer call (`calling`) — all in one
 * transaction, before the media worker is told to INVITE. So a restart loses no contact (the attempt
 * and the held contact are there), dials none twice, and two API instances on one database never
 * take the same contact or call twice for one agent (the agent's readiness row is locked too).
 */

/** A call the dialer placed: what the media worker needs to place it, and who it is for. */
export interface DialerCallToPlace {
  attempt_id: number;
  tenant_id: number;
  ma_dn: string;
  campaign_id: number;
  contact_id: number;
  /** Stored form (84…). */
  number: string;
  /** The campaign's hotline (national form): the caller ID, its switchboard first. */
  hotline: string;
  /** The agent the call is for (progressive); null for a predictive call until it is answered. */
  user_id: number | null;
  extension: string | null;
}

/**
 * An automated voice survey's call: a dialer call for nobody, with what its job says (the campaign's name, its
 * questions in order, each with its recording: `audio_id`, one of the tenant's greetings, or null to be spoken).
 */
export interface VoiceCallToPlace extends DialerCallToPlace {
  campaign_name: string;
  questions: { id: number; kind: VoiceQuestionKind; text: string; options: string[]; audio_id: number | null }[];
}

/** Where to connect an answered call: the agent's extension, and how the agent may see the contact's number. */
export interface DialerBridgeTarget {
  extension: string;
  campaign_id: number;
  contact_id: number;
  /** The contact's number as the agent may see it (masked when the tenant hides numbers). */
  shown: string;
}

/** A report's effect: taken or not (a late or repeated report), and for `answered` where to bridge. */
export interface DialerReportEffect {
  applied: boolean;
  bridge: DialerBridgeTarget | null;
  /** A predictive call answered with no agent yet: `bridgeFor` finds one (within ABANDON_AFTER_S). */
  needsAgent?: boolean;
}

/** What the predictive pacing learns from: the campaign's latest calls with an outcome (ADR 0054's window). */
const HISTORY_WINDOW = 400;

/** The attempts at handing one agent a contact in one go: each Decree 91 refusal ends a contact and the next is tried. */
const REFUSALS_PER_HANDOUT = 5;
/** A dialer call no worker reported on this long after its last step is failed (ring 30 s + the agent's ring + margins). */
export const DIALER_LOST_CALL_S = 180;
/**
 * A bridged call whose end no worker reported this long after (its worker died, or its `completed` was
 * lost while the API was away): ended, so its agent — who keeps the contact to choose a result — is
 * not held out of the dialer for good.
 */
export const DIALER_LOST_BRIDGED_S = 4 * 3600;
/**
 * A voice survey's answered call reports nothing until its end while it asks its questions (each a prompt and
 * up to twice VOICE_INPUT_S for a key, said again once): lost only this long after its answer.
 */
export const DIALER_LOST_VOICE_S = 30 * 60;
/**
 * A voice survey's contact is held (by nobody) this long, past any call the sweep would leave up: no renewing
 * screen holds it meanwhile, and THE hand-out takes back a contact whose lease ran out.
 */
const VOICE_LEASE_SEC = DIALER_LOST_CALL_S + DIALER_LOST_VOICE_S + 300;

/**
 * The keys a voice survey's contact pressed for a question, as the value an agent would have saved for it
 * (rating 1–5 → the number; yes/no 1 → yes, 2 → no; a single choice's key k → its k-th option; a number's
 * digits → the number); null when they answer nothing (no key, or keys the question does not take).
 */
export function voiceValue(q: Pick<QuestionAsAsked, 'kind' | 'options'>, keys: string | null): SurveyAnswerValue {
  if (keys === null) return null;
  let value: SurveyAnswerValue = null;
  switch (q.kind) {
    case 'rating':
      value = /^[1-5]$/.test(keys) ? Number(keys) : null;
      break;
    case 'yes_no':
      value = keys === '1' ? true : keys === '2' ? false : null;
      break;
    case 'single':
      value = /^[1-9]$/.test(keys) ? (q.options[Number(keys) - 1] ?? null) : null;
      break;
    case 'number':
      // Digits only (a "*" or a "#" inside is no number), and no more than a number keeps exactly.
      value = /^[0-9]+$/.test(keys) && Number.isSafeInteger(Number(keys)) ? Number(keys) : null;
      break;
    default:
      return null;
  }
  // The agent's rule for the question: a value it would refuse is not saved either.
  return value !== null && !answerProblem({ ...q, required: false }, value) ? value : null;
}

export function createDialerService(db: Db, moved?: DialerFiguresMoved) {
  /**
   * The calls the campaign's hotline may still start under its calls-per-minute cap (its row locked till
   * the commit: instances count one after the other). None: the workers' asks are woken when the oldest
   * call of the minute leaves it, so the campaign goes on then and not at the next ask's timeout.
   */
  async function roomOn(tx: Queryable, c: repo.WorkCampaignRow, at: Date) {
    const r = await repo.hotlineRoom(tx, c.hotline_id, c.hotline_max_calls_per_minute, at);
    if (r.room < 1 && r.freesAt) placedCallsDue.wakeAt(r.freesAt, at.getTime());
    return r;
  }

  /** For one ready agent: lock their readiness, hand out a contact, check and claim it, write the call. */
  async function handOutFor(tx: Queryable, agent: repo.ReadyAgent, at: Date): Promise<DialerCallToPlace | null> {
    if (!(await repo.lockReadyAgent(tx, agent.campaign_id, agent.user_id, at))) return null;
    const c = await repo.workCampaign(tx, null, agent.campaign_id);
    if (!c || c.state !== 'running' || c.mode !== 'progressive') return null;
    if (!(await repo.isAgent(tx, c.id, agent.user_id))) return null;
    if (!(await inWindow(tx, c.time_group_id, at))) return null;
    if ((await roomOn(tx, c, at)).room < 1) return null;
    await repo.agentTurn(tx, c.id, agent.user_id);
    for (let i = 0; i < REFUSALS_PER_HANDOUT; i++) {
      const row = await repo.handOut(tx, c.id, agent.user_id, at, CONTACT_LEASE_SEC);
      if (!row) return null;
      const claim = await claimedCall(tx, agent.tenant_id, c, row, agent.user_id, at);
      if (!claim) continue;
      await repo.touchReady(tx, c.id, agent.user_id, at);
      return { ...claim, ma_dn: agent.ma_dn, user_id: agent.user_id, extension: agent.extension };
    }
    return null;
  }

  /** One predictive campaign's round: its floor, the pacing's decision, that many contacts handed out and claimed. */
  async function paceCampaign(
    tx: Queryable, c: { id: number; tenant_id: number; ma_dn: string }, standings: repo.AgentStanding[], idle: Set<number>, at: Date, max: number,
  ): Promise<DialerCallToPlace[]> {
    if (!(await repo.tryPacingTurn(tx, c.id))) return [];
    const campaign = await repo.workCampaign(tx, null, c.id);
    if (!campaign || campaign.state !== 'running' || campaign.mode !== 'predictive') return [];
    if (!(await inWindow(tx, campaign.time_group_id, at))) return [];
    const { room } = await roomOn(tx, campaign, at);
    if (room < 1) return [];
    // A callback ("Hẹn gọi lại") is its agent's: dialled for them once they are free, as a progressive call
    // (bridged to them on the answer), before the pacing's calls for anybody; they are then not free for it.
    const calls: DialerCallToPlace[] = [];
    // One read of who has a callback due (most rounds: nobody), not a hand-out tried per free agent on every ask.
    const due = await repo.callbacksDue(tx, c.id, [...idle], at);
    for (const agent of standings) {
      if (calls.length >= Math.min(max, room)) break;
      if (!idle.has(agent.user_id) || !due.has(agent.user_id)) continue;
      const row = await repo.handOut(tx, c.id, agent.user_id, at, CONTACT_LEASE_SEC, true);
      if (!row) continue;
      idle.delete(agent.user_id);
      const claim = await claimedCall(tx, c.tenant_id, campaign, row, agent.user_id, at);
      if (claim) calls.push({ ...claim, ma_dn: c.ma_dn, user_id: agent.user_id, extension: agent.extension });
    }
    const secs = (from: Date | string, to: Date | string = at) => Math.max(0, (new Date(to).getTime() - new Date(from).getTime()) / 1000);
    const open = await repo.unansweredCalls(tx, c.id);
    const floor: Floor = {
      free: idle.size,
      talking: standings.filter((a) => a.in_call_since).map((a) => secs(a.in_call_since!)),
      // An agent choosing a result is neither free nor counted as coming free (the pacing waits for them).
      wrapping: [],
      ringing: open.filter((x) => !x.waiting).map((x) => secs(x.started_at)),
      waiting: open.filter((x) => x.waiting).length,
    };
    const history = await repo.dialerHistory(tx, c.id, HISTORY_WINDOW);
    const known = history.recent.filter((h) => h.answered_at || h.dialer_state === 'ended');
    const observed = {
      dials: known.length,
      answered: known.filter((h) => h.answered_at).length,
      answerDelays: known.filter((h) => h.answered_at).map((h) => secs(h.started_at, h.answered_at!)),
      ringTimes: known.filter((h) => !h.answered_at && h.result === 'no_answer').map((h) => secs(h.started_at, h.dialer_at)),
      talkTimes: known.filter((h) => h.dialer_state === 'ended' && h.answered_at && h.result !== 'abandoned' && h.duration_s !== null).map((h) => h.duration_s!),
      talking: floor.talking,
    };
    const decision = pace(floor, estimate(observed), { answered: history.answered, abandoned: history.abandoned }, {
      abandonCap: Number(campaign.abandon_cap), maxRatio: 3, wrapUp: 0,
    });
    const callbacks = calls.length;
    for (let i = 0, refused = 0; calls.length - callbacks < decision.dial && calls.length < Math.min(max, room) && refused < REFUSALS_PER_HANDOUT; i++) {
      const row = await repo.handOut(tx, c.id, null, at, CONTACT_LEASE_SEC);
      if (!row) break;
      const claim = await claimedCall(tx, c.tenant_id, campaign, row, null, at);
      if (!claim) {
        refused++;
        continue;
      }
      calls.push({ ...claim, ma_dn: c.ma_dn, user_id: null, extension: null });
    }
    return calls;
  }

  /** Decree 91 checked and claimed for the contact just handed out, the attempt written: its id; null when refused (the contact ended as refused). */
  async function claimedCall(tx: Queryable, tenantId: number, c: repo.WorkCampaignRow, row: repo.HeldRow, userId: number | null, at: Date, voiceQuestions: repo.VoiceQuestionAsAsked[] | null = null) {
    const decision = await checkAndClaim(tx, tenantId, { kind: c.purpose, number: row.number, hotline: c.hotline_number, at, campaignId: c.id, callId: null });
    if (!decision.allowed) {
      await repo.insertAttempt(tx, tenantId, row.id, userId, at, decision.reason);
      await repo.releaseContact(tx, row.id, at, { state: 'refused', result: null, refusal: decision.reason });
      return null;
    }
    const attemptId = await repo.insertAttempt(tx, tenantId, row.id, userId, at, null);
    await repo.startDialerCall(tx, attemptId, c.id, at, voiceQuestions);
    return { attempt_id: attemptId, tenant_id: tenantId, campaign_id: c.id, contact_id: row.id, number: row.number, hotline: nationalForm(c.hotline_number) };
  }

  /**
   * One voice survey's round: as many calls as its channels free (`voice_channels` less its calls up), the
   * hotline's minute and `max` allow, each contact handed out to nobody, Decree 91 claimed, the attempt written
   * with the questions it asks. One instance at a time per campaign (the pacing's try lock): two instances
   * counting its calls up at once would together exceed its channels.
   */
  async function voiceRound(tx: Queryable, c: { id: number; tenant_id: number; ma_dn: string }, at: Date, max: number): Promise<VoiceCallToPlace[]> {
    if (!(await repo.tryPacingTurn(tx, c.id))) return [];
    const campaign = await repo.workCampaign(tx, null, c.id);
    if (!campaign || campaign.state !== 'running' || campaign.mode !== 'voice') return [];
    if (!(await inWindow(tx, campaign.time_group_id, at))) return [];
    // A question edited since the campaign started into one the phone cannot answer is not asked; none left: no call.
    const questions = (await repo.voiceQuestions(tx, c.id)).filter(askableByVoice);
    if (!questions.length) return [];
    const channels = campaign.voice_channels - (await repo.callsUp(tx, c.id));
    if (channels < 1) return [];
    const { room } = await roomOn(tx, campaign, at);
    // The attempt keeps which recording each question played (null: its text was spoken).
    const asked = questions.map((q) => ({ ...asAsked(q), audio_id: q.voice_audio_id }));
    const said = questions.map((q) => ({ id: q.id, kind: q.kind as VoiceQuestionKind, text: q.text, options: q.options, audio_id: q.voice_audio_id }));
    const calls: VoiceCallToPlace[] = [];
    for (let refused = 0; calls.length < Math.min(max, channels, room) && refused < REFUSALS_PER_HANDOUT;) {
      const row = await repo.handOut(tx, c.id, null, at, VOICE_LEASE_SEC);
      if (!row) break;
      const claim = await claimedCall(tx, c.tenant_id, campaign, row, null, at, asked);
      if (!claim) {
        refused++;
        continue;
      }
      calls.push({ ...claim, ma_dn: c.ma_dn, user_id: null, extension: null, campaign_name: campaign.name, questions: said });
    }
    return calls;
  }

  /**
   * A voice survey's call ended (answered; its last report): each valid answer saved as an agent's is (the
   * question as asked, this attempt), then the contact ends as an agent's result ends it — agreed when it
   * answered at least one question, else declined — so the results, the export and the progress agree.
   */
  async function endVoice(tx: Queryable, tenantId: number, call: repo.DialerCallRow, answers: VoiceAnswer[], at: Date, durationS: number | null): Promise<void> {
    // An answer keeps the question as asked, as an agent's does (the recording played is the attempt's to keep).
    const asked = new Map((call.voice_questions ?? []).map(({ audio_id: _played, ...q }) => [q.question_id, q]));
    let saved = 0;
    for (const a of answers) {
      const question = asked.get(a.question_id);
      const value = question ? voiceValue(question, a.keys) : null;
      if (!question || value === null) continue;
      await repo.saveAnswer(tx, tenantId, call.contact_id, question, value, at, call.id);
      saved++;
    }
    const result: ContactResult = saved > 0 ? 'agreed' : 'declined';
    await repo.moveDialerCall(tx, call.id, 'ended', at, { result, durationS });
    if (call.contact_state === 'held' && call.held_by === null) await releaseAfter(tx, call, call.contact_id, call.attempts, result, at);
  }

  /** The dialer call ends without an agent on the line: the attempt's result, the contact back by the retry policy. */
  async function endUnbridged(tx: Queryable, call: repo.DialerCallRow, result: ContactResult, at: Date, durationS: number | null): Promise<void> {
    await repo.moveDialerCall(tx, call.id, 'ended', at, { result, durationS });
    // Still the agent's: the contact goes back (another agent, or the screen, may have it by now after a lease ran out).
    if (call.contact_state === 'held' && call.held_by === call.user_id) await releaseAfter(tx, call, call.contact_id, call.attempts, result, at);
  }

  return {
    /**
     * Up to `max` calls to place now, across tenants: for each ready agent whose extension `free` says
     * is registered and not in a call, one contact. Called by the media workers' asks (originate.routes).
     */
    async claimCalls(max: number, at: Date, free: (tenantId: number, maDn: string, extension: string) => Promise<boolean>): Promise<DialerCallToPlace[]> {
      const agents = await db.withSystem((tx) => repo.readyAgents(tx, at, max * 2));
      const calls: DialerCallToPlace[] = [];
      for (const agent of agents) {
        if (calls.length >= max) break;
        if (!(await free(agent.tenant_id, agent.ma_dn, agent.extension))) continue;
        const call = await db.withTenant(agent.tenant_id, (tx) => handOutFor(tx, agent, at));
        if (call) calls.push(call);
      }
      for (const c of calls) moved?.(c.tenant_id, c.campaign_id);
      return calls;
    },

    /**
     * A worker's report on a dialer call, taken once and in order (calling → answered → bridged → ended);
     * a repeated or late one changes nothing. `answered` answers where to bridge (the agent's extension);
     * a voice survey's call is bridged to nobody, and its end (`completed`, or `abandoned` when the contact
     * hung up before the end) carries the keys pressed, saved as the contact's answers.
     * The agent whose call was abandoned because they did not take it (`status`: their leg's failure) is
     * paused, as a queue pauses an agent who does not answer.
     */
    async report(
      tenantId: number, attemptId: number, outcome: DialerOutcome, o: { callId?: string | null; durationS?: number | null; status?: number | null; answers?: VoiceAnswer[] | null }, at: Date,
    ): Promise<DialerReportEffect> {
      const hide = outcome === 'answered' ? await phoneMasker(db, tenantId) : null;
      let campaignId: number | null = null;
      const effect = await db.withTenant(tenantId, async (tx): Promise<DialerReportEffect & { freed: boolean }> => {
        const call = await repo.lockDialerCall(tx, attemptId);
        const none = { applied: false, bridge: null, freed: false };
        if (!call || call.dialer_state === 'ended') return none;
        campaignId = call.campaign_id;
        const from = call.dialer_state;
        const durationS = o.durationS == null ? null : Math.round(o.durationS);
        switch (outcome) {
          case 'answered': {
            // The same report again (the worker's answer to the first was lost): the same bridge, nothing written.
            const again = from === 'answered' && !!o.callId && call.call_id === o.callId;
            if (from !== 'calling' && !again) return none;
            if (!again) await repo.moveDialerCall(tx, call.id, 'answered', at, { callId: o.callId ?? null });
            // A voice survey: the worker asks the questions itself, nobody is connected nor searched for.
            if (call.mode === 'voice') return { applied: !again, bridge: null, freed: false };
            // Predictive: nobody was reserved; the agent free longest is found next (bridgeFor).
            if (call.user_id === null) return { applied: !again, bridge: null, needsAgent: true, freed: false };
            const extension = await repo.extensionOf(tx, call.user_id);
            const phone = nationalForm(call.number);
            return {
              applied: !again, freed: false,
              bridge: extension ? { extension, campaign_id: call.campaign_id, contact_id: call.contact_id, shown: hide ? hide(phone) : phone } : null,
            };
          }
          case 'bridged':
            if (from !== 'answered') return none;
            await repo.moveDialerCall(tx, call.id, 'bridged', at);
            return { applied: true, bridge: null, freed: false };
          case 'completed':
            if (call.mode === 'voice') {
              if (from !== 'answered') return none;
              await endVoice(tx, tenantId, call, o.answers ?? [], at, durationS);
              return { applied: true, bridge: null, freed: true };
            }
            // A bridged call ended: the agent, still holding the contact, sets the result.
            if (from === 'bridged') {
              await repo.moveDialerCall(tx, call.id, 'ended', at, { durationS });
              return { applied: true, bridge: null, freed: false };
            }
            if (from !== 'answered') return none;
            await endUnbridged(tx, call, 'abandoned', at, durationS);
            return { applied: true, bridge: null, freed: true };
          case 'abandoned':
            if (from === 'bridged') return none;
            // A voice survey's contact hung up before its end: what they answered so far is kept, as at its end.
            if (call.mode === 'voice' && from === 'answered') {
              await endVoice(tx, tenantId, call, o.answers ?? [], at, durationS);
              return { applied: true, bridge: null, freed: true };
            }
            await endUnbridged(tx, call, 'abandoned', at, durationS);
            if (o.status && call.user_id !== null) await repo.setReady(tx, tenantId, call.campaign_id, call.user_id, null, at);
            return { applied: true, bridge: null, freed: true };
          case 'no_answer':
          case 'busy':
          case 'failed':
            if (from !== 'calling' && !(outcome === 'failed' && from === 'answered')) return none;
            await endUnbridged(tx, call, outcome, at, durationS);
            return { applied: true, bridge: null, freed: true };
        }
      });
      // Committed: the agent is free again, the dialer calls for them at once.
      if (effect.freed) placedCallsDue.wake();
      if (effect.applied && campaignId !== null) moved?.(tenantId, campaignId);
      return { applied: effect.applied, bridge: effect.bridge, ...(effect.needsAgent && { needsAgent: true }) };
    },

    /**
     * A predictive call the contact answered: the campaign's agent free longest (ready, holding no
     * contact, in no call, their phone registered and idle as `free` says) is given it — the attempt and
     * the contact become theirs. None now: asked again every 100 ms for up to `waitMs` (ABANDON_AFTER_S:
     * the regulators' 2 s), then null, and the worker plays the message (abandoned).
     */
    async bridgeFor(tenantId: number, attemptId: number, free: (tenantId: number, maDn: string, extension: string) => Promise<boolean>, maDn: string, waitMs = ABANDON_AFTER_S * 1000): Promise<DialerBridgeTarget | null> {
      const until = Date.now() + waitMs;
      const hide = await phoneMasker(db, tenantId);
      for (;;) {
        const at = new Date();
        const call = await db.withTenant(tenantId, (tx) => repo.lockDialerCall(tx, attemptId));
        if (!call || call.dialer_state !== 'answered' || call.user_id !== null) return null;
        // Who is free, read first; their phones asked outside any transaction (PGlite has one connection).
        const candidates = await db.withTenant(tenantId, (tx) => repo.freeAgents(tx, call.campaign_id, at));
        for (const agent of candidates) {
          if (!(await free(tenantId, maDn, agent.extension))) continue;
          const given = await db.withTenant(tenantId, (tx) => repo.giveCall(tx, attemptId, call.contact_id, call.campaign_id, agent.user_id, at, CONTACT_LEASE_SEC));
          if (!given) continue;
          moved?.(tenantId, call.campaign_id);
          const phone = nationalForm(call.number);
          return { extension: agent.extension, campaign_id: call.campaign_id, contact_id: call.contact_id, shown: hide ? hide(phone) : phone };
        }
        if (Date.now() + 100 > until) return null;
        await new Promise((r) => setTimeout(r, 100));
      }
    },

    /**
     * The predictive campaigns' calls to place now, up to `max` (ADR 0054's pacing on each campaign's
     * floor and what its calls showed; one campaign paced by one instance at a time). Each call's contact
     * is handed out to nobody yet (held with no agent), Decree 91 claimed, the attempt written — as a
     * progressive call's, in one transaction before the worker is told.
     */
    async claimPredictive(max: number, at: Date, free: (tenantId: number, maDn: string, extension: string) => Promise<boolean>): Promise<DialerCallToPlace[]> {
      const campaigns = await db.withSystem((tx) => repo.predictiveCampaigns(tx, at));
      const calls: DialerCallToPlace[] = [];
      for (const c of campaigns) {
        if (calls.length >= max) break;
        // The floor's phones, asked before the campaign's transaction (PGlite has one connection).
        const standings = await db.withTenant(c.tenant_id, (tx) => repo.agentStandings(tx, c.id, at));
        const idle = new Set<number>();
        for (const a of standings) if (!a.in_call_since && !a.holding && (await free(c.tenant_id, c.ma_dn, a.extension))) idle.add(a.user_id);
        const placed = await db.withTenant(c.tenant_id, (tx) => paceCampaign(tx, c, standings, idle, at, max - calls.length));
        calls.push(...placed);
        if (placed.length) moved?.(c.tenant_id, c.id);
      }
      return calls;
    },

    /**
     * The automated voice surveys' calls to place now, up to `max`: for each running voice survey in its calling
     * window, as many as its channels free and its hotline's minute allow, across tenants (issue 34).
     */
    async claimVoice(max: number, at: Date): Promise<VoiceCallToPlace[]> {
      const campaigns = await db.withSystem((tx) => repo.voiceCampaigns(tx, at));
      const calls: VoiceCallToPlace[] = [];
      for (const c of campaigns) {
        if (calls.length >= max) break;
        const placed = await db.withTenant(c.tenant_id, (tx) => voiceRound(tx, c, at, max - calls.length));
        calls.push(...placed);
        if (placed.length) moved?.(c.tenant_id, c.id);
      }
      return calls;
    },

    /**
     * Dialer calls no worker reported on for DIALER_LOST_CALL_S (its worker died; a voice survey's answered call,
     * DIALER_LOST_VOICE_S): failed, the contact back by the retry policy.
     */
    async failLostCalls(at: Date): Promise<number> {
      const lost = await db.withSystem((tx) =>
        repo.lostDialerCalls(tx, new Date(at.getTime() - DIALER_LOST_CALL_S * 1000), new Date(at.getTime() - DIALER_LOST_BRIDGED_S * 1000),
          new Date(at.getTime() - DIALER_LOST_VOICE_S * 1000)));
      let failed = 0;
      for (const l of lost) if ((await this.report(l.tenant_id, l.id, l.dialer_state === 'bridged' ? 'completed' : 'failed', {}, at)).applied) failed++;
      return failed;
    },
  };
}

export type DialerService = ReturnType<typeof createDialerService>;
