import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SURVEY_API, type One, type Paged, type SurveyAudioOption, type SurveyCategoryOption, type SurveyQuestion } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';

/** Query-key root of the area: every write refreshes it (the lists, the dropdown, the preview). */
export const SCOPE = 'survey';

/** GET /survey-categories/all: the category dropdowns and filter. */
export function useCategoryOptions() {
  return useQuery({
    queryKey: [SCOPE, 'category-options'],
    queryFn: () => tenantApi().get(SURVEY_API.categoryOptions).json<One<SurveyCategoryOption[]>>().then((r) => r.data),
    staleTime: 30_000,
  });
}

/** GET /survey-questions/audio: the tenant's greetings a question may play as its recording. */
export function useAudioOptions() {
  return useQuery({
    queryKey: [SCOPE, 'audio-options'],
    queryFn: () => tenantApi().get(SURVEY_API.audioOptions).json<One<SurveyAudioOption[]>>().then((r) => r.data),
    staleTime: 30_000,
  });
}

/** Every question of one category in its order (the preview); null: none chosen. */
export function useCategoryQuestions(categoryId: number | null) {
  return useQuery({
    queryKey: [SCOPE, 'category-questions', categoryId],
    queryFn: () => tenantApi().get(SURVEY_API.questions, { searchParams: { category_id: categoryId!, per_page: 100 } }).json<Paged<SurveyQuestion>>().then((r) => r.data),
    enabled: categoryId !== null,
  });
}

/** POST /survey-questions/:id/move: up or down within its category. */
export function useMoveQuestion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, direction }: { id: number; direction: 'up' | 'down' }) => tenantApi().post(SURVEY_API.move(id), { json: { direction } }).json(),
    onSuccess: () => qc.invalidateQueries({ queryKey: [SCOPE] }),
  });
}
