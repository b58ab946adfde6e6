import {
  CAMPAIGN_MSG, CONTACT_IMPORT_MAX_ROWS, CONTACT_PREVIEW_ROWS, canTransition, type Campaign, type CampaignFamily, type CampaignInput, type CampaignListQuery,
  type CampaignState, type ContactImportResult, type ContactListQuery, type CrmFilter, type FieldError, type Paged, resultOf, nationalForm, type CampaignContact, type RecordingRef,
  VOICE_MAX_OPTIONS, VOICE_QUESTION_KINDS,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { placedCallsDue } from '../../db/due-signal';
import { iso } from '../../db/sql';
import { recordingRefs, type RecordingAccess } from '../recordings/recordings.service';
import { phoneMasker } from '../settings/settings.service';
import { AppError, ConflictError } from '../../http/errors';
import type { SheetRows } from '../../http/sheet';
import * as repo from './campaigns.repository';
import { candidatesOfSheet, checkContacts, guessMapping, type Candidate } from './contacts';

/** 409 CAMPAIGN_STATE with the sentence that says why (a transition, the contact list of a running campaign…). */
export class CampaignStateError extends AppError {
  constructor(message: string) {
    super('CAMPAIGN_STATE');
    this.message = message;
  }
}

const invalid = (details: FieldError[]) => new AppError('VALIDATION_FAILED', details);
function found<T>(value: T | null): T {
  if (!value) throw new AppError('NOT_FOUND');
  return value;
}

/** The refused rows a response carries (their count is `rows - valid`); the screen shows the first ones. */
const ERRORS_SHOWN = 1000;

/**
 * The references of a campaign, checked inside its transaction: every id is the tenant's (RLS hides
 * the others), and an advertising campaign's caller ID is a hotline registered for advertising
 * (Decree 91, ADR 0049) — a field error in Vietnamese, nothing written.
 */
async function checkReferences(tx: Queryable, c: CampaignInput): Promise<void> {
  const errors: FieldError[] = [];
  const identity = await repo.hotlineIdentity(tx, c.hotline_id);
  if (identity === null) errors.push({ field: 'hotline_id', message: CAMPAIGN_MSG.hotlineUnknown });
  else if (c.purpose === 'advertising' && !identity) errors.push({ field: 'hotline_id', message: CAMPAIGN_MSG.hotlineNotAdvertising, rule: 'no_identity' });
  if (c.time_group_id !== null && !(await repo.existing(tx, 'pbx_time_groups', [c.time_group_id])).has(c.time_group_id)) {
    errors.push({ field: 'time_group_id', message: CAMPAIGN_MSG.timeGroupUnknown });
  }
  const missing = async (table: Parameters<typeof repo.existing>[1], ids: number[], field: string, message: string) => {
    const have = await repo.existing(tx, table, ids);
    if (ids.some((id) => !have.has(id))) errors.push({ field, message });
  };
  await missing('survey_questions', c.question_ids, 'question_ids', CAMPAIGN_MSG.questionUnknown);
  if (c.mode === 'voice' && !(await askedByVoice(tx, c.question_ids))) errors.push({ field: 'question_ids', message: CAMPAIGN_MSG.voiceQuestionKind });
  await missing('users', c.agent_ids, 'agent_ids', CAMPAIGN_MSG.agentUnknown);
  await missing('teams', c.team_ids, 'team_ids', CAMPAIGN_MSG.teamUnknown);
  if (errors.length) throw invalid(errors);
}

/**
 * A question an automated voice survey can ask: answered with the phone's keys (VOICE_QUESTION_KINDS), a
 * single choice with at most VOICE_MAX_OPTIONS options (keys 1–9). A text or multiple-choice question cannot be.
 */
export const askableByVoice = (q: { kind: string; options: readonly string[] }): boolean =>
  (VOICE_QUESTION_KINDS as readonly string[]).includes(q.kind) && (q.kind !== 'single' || (q.options.length >= 1 && q.options.length <= VOICE_MAX_OPTIONS));

/** Every one of these questions (those the tenant has; the unknown ones are refused on their own) can be asked by voice. */
async function askedByVoice(tx: Queryable, questionIds: number[]): Promise<boolean> {
  return (await repo.questionShapes(tx, questionIds)).every(askableByVoice);
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface ImportChoice {
  commit: boolean;
  skipInvalid: boolean;
}

/**
 * Survey and marketing campaigns (ADR 0050): the state machine nháp → đang chạy ↔ tạm dừng → kết
 * thúc enforced here, contact imports previewed and written by one path. Every call is one
 * transaction under the caller's tenant, so a refusal writes nothing.
 */
export function createCampaignsService(db: Db) {
  const locked = async (tx: Queryable, family: CampaignFamily, id: number) => found(await repo.lockCampaign(tx, family, id));

  /** Candidates checked against themselves and the campaign; written when asked and allowed. */
  async function importCandidates(
    tenantId: number, family: CampaignFamily, id: number, candidates: Candidate[], choice: ImportChoice, columns: string[] = [],
    mapping: ContactImportResult['mapping'] = null,
  ): Promise<ContactImportResult> {
    if (candidates.length > CONTACT_IMPORT_MAX_ROWS) throw invalid([{ field: 'file', message: CAMPAIGN_MSG.tooManyRows(CONTACT_IMPORT_MAX_ROWS) }]);
    // Contacts added to a running voice survey: the workers' asks are woken once they are committed.
    let wakeAfter = false;
    const result = await db.withTenant(tenantId, async (tx) => {
      const campaign = await locked(tx, family, id);
      if (campaign.state === 'ended' && choice.commit) throw new CampaignStateError(CAMPAIGN_MSG.ended);
      const first = checkContacts(candidates, new Set());
      const inCampaign = await repo.numbersInCampaign(tx, id, first.valid.map((r) => r.number));
      const { valid, refused } = inCampaign.size ? checkContacts(candidates, inCampaign) : first;
      refused.sort((a, b) => a.row - b.row);
      const write = choice.commit && valid.length > 0 && (refused.length === 0 || choice.skipInvalid);
      const imported = write ? await repo.insertContacts(tx, tenantId, id, valid) : 0;
      if (imported && campaign.state === 'running' && campaign.mode === 'voice') wakeAfter = true;
      return {
        columns, mapping, rows: candidates.length, valid: valid.length,
        sample: valid.slice(0, CONTACT_PREVIEW_ROWS).map(({ name, number, fields }) => ({ name, number, fields })),
        errors: refused.slice(0, ERRORS_SHOWN), imported, committed: write,
      };
    });
    if (wakeAfter) placedCallsDue.wake();
    return result;
  }

  return {
    async list(tenantId: number, family: CampaignFamily, q: CampaignListQuery): Promise<Paged<Campaign>> {
      const { rows, total } = await db.withTenant(tenantId, (tx) => repo.listCampaigns(tx, family, q));
      return { data: rows, meta: { page: q.page, per_page: q.per_page, total } };
    },
    get: async (tenantId: number, family: CampaignFamily, id: number) => found(await db.withTenant(tenantId, (tx) => repo.getCampaign(tx, family, id))),
    options: (tenantId: number) => db.withTenant(tenantId, repo.options),
    progress: (tenantId: number, family: CampaignFamily, id: number) =>
      db.withTenant(tenantId, async (tx) => found(await repo.getCampaign(tx, family, id)).progress),

    create: (tenantId: number, family: CampaignFamily, input: CampaignInput) =>
      db.withTenant(tenantId, async (tx) => {
        await checkReferences(tx, input);
        const id = await repo.insertCampaign(tx, tenantId, family, input);
        await repo.setMembers(tx, tenantId, id, input);
        return found(await repo.getCampaign(tx, family, id));
      }),

    /** An ended campaign is final; a running one keeps its purpose, hotline, questions and mode (pause it to change them). */
    update: (tenantId: number, family: CampaignFamily, id: number, input: CampaignInput) =>
      db.withTenant(tenantId, async (tx) => {
        const campaign = await locked(tx, family, id);
        if (campaign.state === 'ended') throw new CampaignStateError(CAMPAIGN_MSG.ended);
        if (campaign.state === 'running') {
          const before = found(await repo.getCampaign(tx, family, id));
          if (before.purpose !== input.purpose || before.hotline_id !== input.hotline_id || before.mode !== input.mode || !sameList(before.question_ids, input.question_ids)) {
            throw new CampaignStateError(CAMPAIGN_MSG.lockedWhileRunning);
          }
        }
        await checkReferences(tx, input);
        await repo.updateCampaign(tx, id, input);
        await repo.setMembers(tx, tenantId, id, input);
        return found(await repo.getCampaign(tx, family, id));
      }),

    /** Only a draft goes away; a campaign that ran is ended, so its results stay. */
    async remove(tenantId: number, family: CampaignFamily, id: number): Promise<void> {
      await db.withTenant(tenantId, async (tx) => {
        const campaign = await locked(tx, family, id);
        if (campaign.state !== 'draft') throw new CampaignStateError(CAMPAIGN_MSG.deleteOnlyDraft);
        await repo.deleteCampaign(tx, id);
      });
    },

    /**
     * nháp → đang chạy ↔ tạm dừng → kết thúc (contracts CAMPAIGN_TRANSITIONS). Starting needs contacts,
     * and an advertising campaign's hotline is checked for its identity again (it may have lost it).
     */
    transition: (tenantId: number, family: CampaignFamily, id: number, to: CampaignState) =>
      db.withTenant(tenantId, async (tx) => {
        const campaign = await locked(tx, family, id);
        if (!canTransition(campaign.state, to)) throw new CampaignStateError(CAMPAIGN_MSG.transition(campaign.state, to));
        if (to === 'running') {
          if (!(await repo.contactCount(tx, id))) throw new CampaignStateError(CAMPAIGN_MSG.noContacts);
          // A voice survey's question may have been edited since it was saved (a text question cannot be asked by voice).
          if (campaign.mode === 'voice' && !(await askedByVoice(tx, await repo.questionIdsOf(tx, id)))) {
            throw invalid([{ field: 'question_ids', message: CAMPAIGN_MSG.voiceQuestionKind }]);
          }
          if (campaign.purpose === 'advertising' && !(await repo.hotlineIdentity(tx, campaign.hotline_id))) {
            throw new ConflictError(CAMPAIGN_MSG.hotlineNotAdvertising, [{ field: 'hotline_id', message: CAMPAIGN_MSG.hotlineNotAdvertising, rule: 'no_identity' }]);
          }
        }
        await repo.setState(tx, id, to);
        return found(await repo.getCampaign(tx, family, id));
      }).then((c) => {
        // Committed: a voice survey started or resumed is called at once (no agent's readiness wakes the workers' asks for it).
        if (c.state === 'running' && c.mode === 'voice') placedCallsDue.wake();
        return c;
      }),

    /**
     * A page of contacts (numbers masked per the tenant) with each one's call (time, talk time, result) and, for a viewer holding
     * recording.listen (`recording` not null), its recording (ADR 0050: a recording from its contact's row).
     */
    async contacts(tenantId: number, family: CampaignFamily, id: number, q: ContactListQuery, recording: RecordingAccess = null) {
      const { rows, total, recordings } = await db.withTenant(tenantId, async (tx) => {
        found(await repo.getCampaign(tx, family, id));
        const page = await repo.listContacts(tx, id, q);
        const callIds = page.rows.flatMap((r) => (r.call_id ? [r.call_id] : []));
        return { ...page, recordings: recording ? await recordingRefs(tx, callIds, recording.downloadable) : new Map<string, RecordingRef>() };
      });
      // Numbers as the tenant shows them (masked when it hides numbers), like the working screen and the export.
      const hide = await phoneMasker(db, tenantId);
      const data: CampaignContact[] = rows.map(({ attempt_id, call_id, attempt_at, call_started_at, answered_at, billsec, disposition, ...contact }) => ({
        ...contact,
        number: hide ? hide(nationalForm(contact.number)) : contact.number,
        call:
          attempt_id && call_id && attempt_at
            ? {
                attempt_id: Number(attempt_id),
                call_id,
                attempt_at: iso(attempt_at),
                started_at: call_started_at && iso(call_started_at),
                answered_at: answered_at && iso(answered_at),
                talk_seconds: disposition ? (billsec ?? 0) : null,
                result: disposition ? resultOf(disposition) : null,
                recording: recordings.get(call_id) ?? null,
              }
            : null,
      }));
      return { data, meta: { page: q.page, per_page: q.per_page, total } };
    },

    /** Empties a draft's contact list; while running or paused the list only grows. */
    async clearContacts(tenantId: number, family: CampaignFamily, id: number): Promise<void> {
      await db.withTenant(tenantId, async (tx) => {
        const campaign = await locked(tx, family, id);
        if (campaign.state === 'ended') throw new CampaignStateError(CAMPAIGN_MSG.ended);
        if (campaign.state !== 'draft') throw new CampaignStateError(CAMPAIGN_MSG.contactsOnlyAdded);
        await repo.clearContacts(tx, id);
      });
    },

    /** An uploaded sheet: the name and phone columns (guessed from the header when not chosen), the rest become fields. */
    importSheet(tenantId: number, family: CampaignFamily, id: number, rows: SheetRows, chosen: { name_column?: number; phone_column?: number }, choice: ImportChoice) {
      const guessed = guessMapping(rows[0] ?? []);
      const mapping = { name_column: chosen.name_column ?? guessed.name_column, phone_column: chosen.phone_column ?? guessed.phone_column };
      const width = (rows[0] ?? []).length;
      const errors: FieldError[] = [];
      if (mapping.phone_column < 0 || mapping.phone_column >= width) errors.push({ field: 'phone_column', message: CAMPAIGN_MSG.phoneColumn });
      if (mapping.name_column >= width) errors.push({ field: 'name_column', message: CAMPAIGN_MSG.nameColumn });
      if (mapping.name_column >= 0 && mapping.name_column === mapping.phone_column) errors.push({ field: 'name_column', message: CAMPAIGN_MSG.columnsSame });
      const { header, candidates } = candidatesOfSheet(rows, mapping);
      // The preview of a file whose columns are not chosen yet: its header, so the user can choose.
      if (errors.length && !choice.commit) {
        return Promise.resolve<ContactImportResult>({ columns: header, mapping, rows: candidates.length, valid: 0, sample: [], errors: [], imported: 0, committed: false });
      }
      if (errors.length) throw invalid(errors);
      if (!candidates.length) throw invalid([{ field: 'file', message: CAMPAIGN_MSG.emptyFile }]);
      return importCandidates(tenantId, family, id, candidates, choice, header, mapping);
    },

    /** The tenant's customers by data source, project, profile status and owner's department. */
    async importCrm(tenantId: number, family: CampaignFamily, id: number, filter: CrmFilter) {
      const candidates = await db.withTenant(tenantId, (tx) => repo.crmCandidates(tx, filter, CONTACT_IMPORT_MAX_ROWS + 1));
      return importCandidates(tenantId, family, id, candidates, { commit: filter.commit, skipInvalid: filter.skip_invalid });
    },
  };
}

/**
 * The surveys module's QuestionUsage (ADR 0050), wired by the composition root: a question asked
 * by a running or paused campaign is not deleted.
 */
export const campaignQuestionUsage = {
  runningCampaignsAsking: (tx: Queryable, questionId: number) => repo.activeCampaignsAsking(tx, questionId),
};
