import {
  CAMPAIGN_RESULTS_EXPORT_HEADERS, CONTACT_RESULT_LABELS, CONTACT_STATE_LABELS, DECREE91_MESSAGES, YES_NO_LABELS, formatDateTime, nationalForm,
  type CampaignFamily, type CampaignResults, type ContactResult, type Decree91Refusal, type SurveyAnswerValue,
} from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AppError } from '../../http/errors';
import { phoneMasker } from '../settings/settings.service';
import { campaignResults, exportContacts } from './results.repository';

export { surveyCallsCompleted } from './results.repository';

const EXPORT_PAGE = 1000;

async function campaignOf(tx: Queryable, family: CampaignFamily, id: number): Promise<{ id: number; name: string }> {
  const { rows } = await tx.query<{ id: number; name: string }>('select id, name from campaigns where id = $1 and family = $2', [id, family]);
  if (!rows[0]) throw new AppError('NOT_FOUND');
  return rows[0];
}

/** An answer as a cell: options joined, yes/no in Vietnamese, numbers as written. */
function answerCell(value: SurveyAnswerValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join('; ');
  if (typeof value === 'boolean') return value ? YES_NO_LABELS.true : YES_NO_LABELS.false;
  return String(value);
}

/** The results of one campaign (ADR 0050 slice 4): the read model, and its contacts exported page by page. */
export function createResultsService(db: Db) {
  return {
    results: (tenantId: number, family: CampaignFamily, id: number): Promise<CampaignResults> =>
      db.withTenant(tenantId, async (tx) => {
        await campaignOf(tx, family, id);
        return campaignResults(tx, id);
      }),

    /** The export's headers (the questions' texts follow the fixed columns) and its pages; numbers masked per the tenant. */
    async exportOf(tenantId: number, family: CampaignFamily, id: number) {
      const { questions } = await db.withTenant(tenantId, async (tx) => {
        await campaignOf(tx, family, id);
        return { questions: (await campaignResults(tx, id)).questions };
      });
      const hide = await phoneMasker(db, tenantId);
      const headers = [...CAMPAIGN_RESULTS_EXPORT_HEADERS, ...questions.map((q) => q.text)];
      async function* pages() {
        let after = 0;
        while (true) {
          const rows = await db.withTenant(tenantId, (tx) => exportContacts(tx, id, after, EXPORT_PAGE));
          if (!rows.length) return;
          yield rows.map((r) => {
            const phone = nationalForm(r.number);
            return [
              r.name, hide ? hide(phone) : phone, CONTACT_STATE_LABELS[r.state as keyof typeof CONTACT_STATE_LABELS] ?? r.state,
              r.result ? CONTACT_RESULT_LABELS[r.result as ContactResult] ?? r.result : '',
              r.refusal ? DECREE91_MESSAGES[r.refusal as Decree91Refusal] ?? r.refusal : '',
              String(r.attempts), r.agent_name ?? '', r.last_at ? formatDateTime(r.last_at as string) : '',
              ...questions.map((q) => answerCell(r.answers?.[String(q.question_id)])),
            ];
          });
          if (rows.length < EXPORT_PAGE) return;
          after = rows.at(-1)!.id;
        }
      }
      return { headers, pages: pages() };
    },
  };
}
