import {
  ATTEMPT_DIAL_SEC, CONTACT_LEASE_SEC, DIALER_READY_SEC, isDialerMode, type ContactResult, type ReadyState, allNumberForms, DECREE91_MESSAGES, WORK_MSG, asAsked, answerProblem, nationalForm, type CallDecision, type CampaignFamily, type ContactAnswer,
  type ContactResultInput, type TimeGroup, type WorkContact, type WorkNext,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { placedCallsDue } from '../../db/due-signal';
import { iso } from '../../db/sql';
import { AppError } from '../../http/errors';
import { holidaysInForce } from '../holidays/holidays.service';
import { matchesTimeGroup } from '../routing';
import { phoneMasker } from '../settings/settings.service';
import { CampaignStateError } from './campaigns.service';
import { checkAndClaim } from './decree91.service';
import { consentInForce, type ConsentRow } from './dnc.repository';
import * as repo from './work.repository';

const MINUTE = 60_000;
/** A call an extension places within this long of its agent's allowed "Gọi" goes out with the campaign's hotline. */
export const CAMPAIGN_CALLER_ID_SEC = 120;

/**
 * The campaign caller ID of a call the extension places to `callee` now (ADR 0050 slice 3, Decree 91:
 * an advertising call shows the identity registered for it): the running campaign's hotline when the
 * extension's agent made an allowed "Gọi" to that number within CAMPAIGN_CALLER_ID_SEC; else null.
 * Read by the call plane for the routing plan (routing LiveState.campaignCaller). With the call's
 * `callId` (its SIP Call-ID, the key of its CDR and recording), that attempt is linked to the call.
 */
export async function campaignCallerOf(db: Db, tenantId: number, extension: string, callee: string, at: Date, callId: string | null = null): Promise<{ campaignId: number; hotline: string } | null> {
  if (!(await mayHaveCampaignCall(db, tenantId, at))) return null;
  const forms = [...new Set([callee, ...allNumberForms(callee)])];
  const row = await db.withTenant(tenantId, (tx) => repo.campaignHotlineOfCall(tx, extension, forms, new Date(at.getTime() - CAMPAIGN_CALLER_ID_SEC * 1000), callId));
  return row && { campaignId: row.campaign_id, hotline: row.hotline };
}
/**
 * Per tenant: its latest allowed "Gọi" (ms, -Infinity for none) and when that was read. Every call an
 * extension places out asks campaignCallerOf, on the plan's path (the carrier bench's 1000 cps): a
 * tenant with no allowed attempt in the window costs no query but one a second. An attempt this
 * process allows is noted at once; another API instance's is seen within a second (issue 42).
 */
const latestAllowed = new Map<number, { at: number; read: number }>();
const LATEST_ALLOWED_TTL_MS = 1000;

async function mayHaveCampaignCall(db: Db, tenantId: number, now: Date): Promise<boolean> {
  const windowStart = now.getTime() - CAMPAIGN_CALLER_ID_SEC * 1000;
  let known = latestAllowed.get(tenantId);
  if (!known || Date.now() - known.read >= LATEST_ALLOWED_TTL_MS) {
    const at = await db.withTenant(tenantId, (tx) => repo.latestAllowedAttempt(tx, new Date(windowStart)));
    known = { at: at?.getTime() ?? -Infinity, read: Date.now() };
    latestAllowed.set(tenantId, known);
  }
  return known.at >= windowStart;
}

function noteAllowedAttempt(tenantId: number, at: Date): void {
  const known = latestAllowed.get(tenantId);
  if (!known || known.at < at.getTime()) latestAllowed.set(tenantId, { at: at.getTime(), read: known?.read ?? Date.now() });
}
const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', [{ field, message }]);
/** 403 that says why: the user may run campaigns, but is not one of this campaign's agents. */
function notAgent(): AppError {
  const e = new AppError('FORBIDDEN');
  e.message = WORK_MSG.notAgent;
  return e;
}

/**
 * Whether `at` is inside the campaign's calling window (no time group: always). A window "trừ ngày
 * lễ" is closed all day on the tenant's public holidays (issue 39), as a time condition would be.
 */
export async function inWindow(tx: Queryable, groupId: number | null, at: Date): Promise<boolean> {
  if (groupId === null) return true;
  const group = (await repo.callingWindow(tx, groupId)) as TimeGroup;
  return matchesTimeGroup(group, at, undefined, group.holiday_mode === 'none' ? undefined : await holidaysInForce(tx, at));
}

/**
 * Where a contact goes after a call's result (an agent's, or the dialer's when no agent was on the
 * line): busy / no answer / abandoned / failed → pending again after the campaign's minutes until its
 * attempts are used up, then done; a callback → back to `callbackUserId` at that time; the rest done.
 */
export async function releaseAfter(
  tx: Queryable, campaign: { retry_busy_min: number; retry_no_answer_min: number; max_attempts: number },
  contactId: number, attempts: number, result: ContactResult, at: Date, callback?: { at: Date; userId: number },
): Promise<void> {
  const retryMin = result === 'busy' ? campaign.retry_busy_min : result === 'no_answer' || result === 'abandoned' || result === 'failed' ? campaign.retry_no_answer_min : null;
  if (callback) {
    await repo.releaseContact(tx, contactId, at, { state: 'callback', result: 'callback', nextAt: callback.at, callbackUserId: callback.userId });
  } else if (retryMin !== null && attempts < campaign.max_attempts) {
    await repo.releaseContact(tx, contactId, at, { state: 'pending', result, nextAt: new Date(at.getTime() + retryMin * MINUTE) });
  } else {
    await repo.releaseContact(tx, contactId, at, { state: 'done', result });
  }
}

/** Who works: the tenant, the agent (the session's user) and the server clock of this request. */
export interface Agent {
  tenantId: number;
  userId: number;
  at: Date;
}

/**
 * The agent's working screen (ADR 0050 slice 3): the hand-out, the lease, answers as typed, "Gọi"
 * under Decree 91 (ADR 0049) and the result that ends a contact. Every call is one transaction under
 * the agent's tenant; the clock is the caller's `at` (the route passes the server's), so the rules
 * are tested at 16:59:59 and 17:00:00 Vietnam time whatever the machine's zone.
 */
export function createWorkService(db: Db) {
  let lastWaitingWake = 0;
  /** The running campaign of this family, not a voice survey, and the agent is one of its agents; 404 / 409 / 403 otherwise. */
  async function campaignFor(tx: Queryable, family: CampaignFamily, id: number, userId: number) {
    const campaign = await repo.workCampaign(tx, family, id);
    if (!campaign) throw new AppError('NOT_FOUND');
    if (campaign.state !== 'running') throw new CampaignStateError(WORK_MSG.notRunning);
    // Before the agents' check: a voice survey usually has none, and this says why there is nothing to do.
    if (campaign.mode === 'voice') throw new CampaignStateError(WORK_MSG.voiceSurvey);
    if (!(await repo.isAgent(tx, id, userId))) throw notAgent();
    return campaign;
  }

  async function held(tx: Queryable, a: Agent, family: CampaignFamily, id: number, contactId: number) {
    const campaign = await campaignFor(tx, family, id, a.userId);
    const contact = await repo.lockHeld(tx, id, contactId, a.userId);
    if (!contact) throw new CampaignStateError(WORK_MSG.notHeld);
    return { campaign, contact };
  }

  /** What the consent in force lifts (a withdrawal, lifting nothing, is none). */
  const termsOf = (r: ConsentRow | null) =>
    r && (r.lifts_window || r.lifts_cap || r.overrides_dnc)
      ? { source: r.source, agreed_at: r.agreed_at, lifts_window: r.lifts_window, lifts_cap: r.lifts_cap, overrides_dnc: r.overrides_dnc }
      : null;

  async function shown(tx: Queryable, a: Agent, c: repo.HeldRow, hide: ((phone: string) => string) | null): Promise<WorkContact> {
    const phone = nationalForm(c.number);
    return {
      id: c.id, campaign_id: 0, name: c.name, phone: hide ? hide(phone) : phone, fields: c.fields, attempts: c.attempts,
      callback: c.callback_user_id === a.userId, held_until: iso(c.held_until),
      customer: await repo.customerCard(tx, c.customer_id, c.number),
      consent: termsOf(await consentInForce(tx, c.number)),
      history: await repo.attemptsOf(tx, c.id),
      answers: await repo.answersOf(tx, c.id),
      dialer: c.dialer_state ? { state: c.dialer_state } : null,
    };
  }

  /**
   * A progressive campaign's screen asking (issue 34): the contact the dialer holds for this agent, or
   * why there is none — and, while the agent is ready, their readiness renewed (DIALER_READY_SEC) and
   * the dialer woken to call for them. The screen never takes a contact itself.
   */
  async function progressiveNext(tx: Queryable, a: Agent, c: repo.WorkCampaignRow, campaign: WorkNext['campaign'], hide: ((phone: string) => string) | null): Promise<WorkNext> {
    const row = await repo.renewHeld(tx, c.id, a.userId, a.at, CONTACT_LEASE_SEC);
    if (row) {
      await repo.keepReady(tx, c.id, a.userId, new Date(a.at.getTime() + DIALER_READY_SEC * 1000), a.at);
      return { campaign, contact: { ...(await shown(tx, a, row, hide)), campaign_id: c.id }, reason: null, message: null };
    }
    if (!(await repo.extensionOf(tx, a.userId))) return { campaign, contact: null, reason: 'no_extension', message: WORK_MSG.noExtension };
    if (!(await repo.readyUntil(tx, c.id, a.userId, a.at))) return { campaign, contact: null, reason: 'not_ready', message: WORK_MSG.notReady };
    await repo.setReady(tx, a.tenantId, c.id, a.userId, new Date(a.at.getTime() + DIALER_READY_SEC * 1000), a.at);
    if (!(await inWindow(tx, c.time_group_id, a.at))) return { campaign, contact: null, reason: 'outside_window', message: WORK_MSG.outsideWindow };
    if (!(await repo.anyDue(tx, c.id, a.userId, a.at))) return { campaign, contact: null, reason: 'empty', message: WORK_MSG.empty };
    return { campaign, contact: null, reason: 'waiting', message: WORK_MSG.waiting };
  }

  /** The campaign, running, of this family, this user one of its agents, and progressive (409 otherwise). */
  async function progressiveFor(tx: Queryable, family: CampaignFamily, id: number, userId: number) {
    const c = await campaignFor(tx, family, id, userId);
    if (!isDialerMode(c.mode)) throw new CampaignStateError(WORK_MSG.notProgressive);
    return c;
  }

  return {
    /** The contact this agent holds (a reload finds it with its answers), else the next one handed out. */
    async next(a: Agent, family: CampaignFamily, id: number): Promise<WorkNext> {
      // The tenant's masking of numbers (SPEC §9), read before the hand-out's transaction.
      const hide = await phoneMasker(db, a.tenantId);
      const next = await db.withTenant(a.tenantId, async (tx): Promise<WorkNext> => {
        const c = await campaignFor(tx, family, id, a.userId);
        const campaign = {
          id: c.id, family: c.family, name: c.name, purpose: c.purpose, hotline_number: nationalForm(c.hotline_number), script: c.script,
          questions: await repo.workQuestions(tx, id), mode: c.mode,
        };
        if (isDialerMode(c.mode)) return progressiveNext(tx, a, c, campaign, hide);
        // One hand-out at a time per agent and campaign: a double click or two tabs get one contact, not two.
        await repo.agentTurn(tx, id, a.userId);
        let row = await repo.renewHeld(tx, id, a.userId, a.at, CONTACT_LEASE_SEC);
        if (!row) {
          if (!(await inWindow(tx, c.time_group_id, a.at))) return { campaign, contact: null, reason: 'outside_window', message: WORK_MSG.outsideWindow };
          row = await repo.handOut(tx, id, a.userId, a.at, CONTACT_LEASE_SEC);
        }
        if (!row) return { campaign, contact: null, reason: 'empty', message: WORK_MSG.empty };
        return { campaign, contact: { ...(await shown(tx, a, row, hide)), campaign_id: id }, reason: null, message: null };
      });
      // Committed: an agent waiting for the dialer (ready, holding nothing) wakes the media workers' asks,
      // at most once a second for the whole process (every waiting screen asks every DIALER_POLL_SEC).
      if (next.reason === 'waiting' && Date.now() - lastWaitingWake >= 1000) {
        lastWaitingWake = Date.now();
        placedCallsDue.wake();
      }
      return next;
    },

    /** The screen is open: the lease goes on (409 when the contact went back to the pool and someone took it). */
    lease: (a: Agent, family: CampaignFamily, id: number, contactId: number) =>
      db.withTenant(a.tenantId, async (tx) => {
        const c = await campaignFor(tx, family, id, a.userId);
        const row = await repo.renewHeld(tx, id, a.userId, a.at, CONTACT_LEASE_SEC, contactId);
        if (!row) throw new CampaignStateError(WORK_MSG.notHeld);
        // A progressive agent in a long call (or writing its result) stays ready for the calls after it.
        if (isDialerMode(c.mode)) await repo.keepReady(tx, id, a.userId, new Date(a.at.getTime() + DIALER_READY_SEC * 1000), a.at);
        return { held_until: iso(row.held_until) };
      }),

    /** One answer as typed, with the question as asked; checked by the rule the screen uses (required is for the result, not here). */
    answer: (a: Agent, family: CampaignFamily, id: number, contactId: number, input: ContactAnswer) =>
      db.withTenant(a.tenantId, async (tx) => {
        await held(tx, a, family, id, contactId);
        const question = (await repo.workQuestions(tx, id)).find((q) => q.id === input.question_id);
        if (!question) throw invalid('question_id', WORK_MSG.questionNotAsked);
        const problem = answerProblem({ kind: question.kind, options: question.options, required: false }, input.value);
        if (problem) throw invalid('value', problem);
        await repo.saveAnswer(tx, a.tenantId, contactId, asAsked(question), input.value, a.at);
      }),

    /**
     * "Gọi": Decree 91 checked and, for advertising, the number's 24-hour slot claimed, in the same
     * transaction as the attempt row. A refusal ends the contact as refused with its reason (counted
     * in the campaign's progress) and says why in Vietnamese.
     */
    call: (a: Agent, family: CampaignFamily, id: number, contactId: number): Promise<CallDecision> =>
      db.withTenant(a.tenantId, async (tx) => {
        const { campaign, contact } = await held(tx, a, family, id, contactId);
        if (isDialerMode(campaign.mode)) throw new CampaignStateError(WORK_MSG.dialerCalls);
        const decision = await checkAndClaim(tx, a.tenantId, {
          kind: campaign.purpose, number: contact.number, hotline: campaign.hotline_number, at: a.at, campaignId: id, callId: null,
        });
        if (!decision.allowed) {
          await repo.insertAttempt(tx, a.tenantId, contactId, a.userId, a.at, decision.reason);
          await repo.releaseContact(tx, contactId, a.at, { state: 'refused', result: null, refusal: decision.reason });
          return { allowed: false, reason: decision.reason, message: DECREE91_MESSAGES[decision.reason] };
        }
        const attemptId = await repo.insertAttempt(tx, a.tenantId, contactId, a.userId, a.at, null);
        noteAllowedAttempt(a.tenantId, a.at);
        return { allowed: true, attempt_id: attemptId };
      }),

    /**
     * Ends the contact for now: agreed, declined, wrong number → done; busy / no answer → again after
     * the campaign's minutes, until its attempts are used up; a callback → back to this agent at that time.
     */
    result: (a: Agent, family: CampaignFamily, id: number, contactId: number, input: ContactResultInput) =>
      db.withTenant(a.tenantId, async (tx) => {
        const { campaign } = await held(tx, a, family, id, contactId);
        let callbackAt: Date | null = null;
        if (input.result === 'callback') {
          callbackAt = new Date(input.callback_at!);
          if (!(callbackAt.getTime() > a.at.getTime())) throw invalid('callback_at', WORK_MSG.callbackFuture);
        }
        const open = await repo.openAttempt(tx, contactId, a.userId);
        if (open) await repo.setAttemptResult(tx, open, input.result);
        else await repo.insertAttempt(tx, a.tenantId, contactId, a.userId, a.at, null, input.result);
        const { attempts } = (await repo.lockHeld(tx, id, contactId, a.userId))!;
        await releaseAfter(tx, campaign, contactId, attempts, input.result, a.at, callbackAt ? { at: callbackAt, userId: a.userId } : undefined);
        return campaign.mode;
      }).then((mode) => {
        // Committed: a progressive campaign's agent is free again, the dialer calls for them at once.
        if (isDialerMode(mode)) placedCallsDue.wake();
      }),

    /** GET …/ready: whether the agent takes the progressive campaign's calls now. */
    readyState: (a: Agent, family: CampaignFamily, id: number): Promise<ReadyState> =>
      db.withTenant(a.tenantId, async (tx) => {
        await progressiveFor(tx, family, id, a.userId);
        const until = await repo.readyUntil(tx, id, a.userId, a.at);
        return { ready: !!until, ready_until: until ? until.toISOString() : null };
      }),

    /** PUT …/ready: "Sẵn sàng nhận cuộc gọi" (the dialer calls for the agent) or "Tạm dừng" (it stops; a call under way goes on). */
    setReady: (a: Agent, family: CampaignFamily, id: number, ready: boolean): Promise<ReadyState> =>
      db.withTenant(a.tenantId, async (tx) => {
        await progressiveFor(tx, family, id, a.userId);
        if (ready && !(await repo.extensionOf(tx, a.userId))) throw new CampaignStateError(WORK_MSG.noExtension);
        const until = ready ? new Date(a.at.getTime() + DIALER_READY_SEC * 1000) : null;
        await repo.setReady(tx, a.tenantId, id, a.userId, until, a.at);
        return { ready, ready_until: until ? until.toISOString() : null };
      }).then((state) => {
        if (state.ready) placedCallsDue.wake();
        return state;
      }),

    /** The number the softphone dials for this agent's allowed "Gọi" on the contact in the last few minutes. */
    dial: (a: Agent, family: CampaignFamily, id: number, contactId: number) =>
      db.withTenant(a.tenantId, async (tx) => {
        if (!(await repo.workCampaign(tx, family, id))) throw new AppError('NOT_FOUND');
        const number = await repo.attemptNumber(tx, id, contactId, a.userId, new Date(a.at.getTime() - ATTEMPT_DIAL_SEC * 1000));
        if (!number) throw new CampaignStateError(WORK_MSG.attemptGone);
        return { number: nationalForm(number) };
      }),
  };
}
