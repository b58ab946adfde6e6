import { useId } from 'react';
import { Checkbox, Field, Input, Label, Radio, RadioGroup, Text, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { RATING_MAX, RATING_MIN, type SurveyAnswerValue, type SurveyQuestionKind } from '@tongdai/contracts';
import { NS } from '../i18n';

/** What the agent is asked: the question as asked (text, options) and whether an answer is required. */
export interface AskedQuestion {
  kind: SurveyQuestionKind;
  text: string;
  options: readonly string[];
  required: boolean;
}

const useStyles = makeStyles({
  group: { display: 'flex', flexDirection: 'column', gap: '2px' },
  legend: { marginBottom: '4px' },
  rating: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  scale: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

const RATINGS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/**
 * One question exactly as the agent sees it on the campaign's working screen, with its answer
 * control by kind: single → radios, multiple → check boxes, rating → 1–5, number, yes/no, free text.
 * Controlled: the value is the answer as saved (contracts SurveyAnswerValue), null = not answered.
 */
export function SurveyQuestionView({ question: q, number, value, onChange, error }: {
  question: AskedQuestion;
  /** 1, 2, 3… as the agent asks them. */
  number: number;
  value: SurveyAnswerValue;
  onChange: (value: SurveyAnswerValue) => void;
  error?: string | null;
}) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const id = useId();
  const text = `${number}. ${q.text || t('question.previewEmptyText')}`;
  // The question stands out from its options: semibold, as in a Field's label slot.
  const label = { children: text, weight: 'semibold' as const };
  const state = { validationMessage: error ?? undefined, validationState: error ? ('error' as const) : ('none' as const) };
  const testId = `survey-question-${number}`;

  if (q.kind === 'multiple') {
    const picked = Array.isArray(value) ? value : [];
    const toggle = (o: string, on: boolean) => onChange(on ? q.options.filter((x) => x === o || picked.includes(x)) : picked.filter((x) => x !== o));
    return (
      <div role="group" aria-labelledby={`${id}-legend`} className={s.group} data-testid={testId}>
        <Label id={`${id}-legend`} className={s.legend} weight="semibold" required={q.required}>{text}</Label>
        {q.options.map((o, i) => (
          <Checkbox key={`${i}-${o}`} label={o} checked={picked.includes(o)} onChange={(_, d) => toggle(o, d.checked === true)} data-testid="answer-option" />
        ))}
        {error && <Text role="alert" size={200} className={s.error}>{error}</Text>}
      </div>
    );
  }
  if (q.kind === 'single' || q.kind === 'yes_no' || q.kind === 'rating') {
    const choices: { value: string; label: string }[] =
      q.kind === 'single' ? q.options.map((o) => ({ value: o, label: o }))
        : q.kind === 'yes_no' ? [{ value: 'true', label: t('answer.yes') }, { value: 'false', label: t('answer.no') }]
          : RATINGS.map((n) => ({ value: String(n), label: String(n) }));
    const parse = (x: string): SurveyAnswerValue => (q.kind === 'yes_no' ? x === 'true' : q.kind === 'rating' ? Number(x) : x);
    const radios = (
      <RadioGroup layout={q.kind === 'single' ? 'vertical' : 'horizontal'} value={value === null ? '' : String(value)} onChange={(_, d) => onChange(parse(d.value))}>
        {choices.map((c, i) => <Radio key={`${i}-${c.value}`} value={c.value} label={c.label} data-testid="answer-option" />)}
      </RadioGroup>
    );
    return (
      <Field label={label} required={q.required} {...state} data-testid={testId}>
        {q.kind === 'rating'
          ? <div className={s.rating}><Text size={200} className={s.scale}>{t('answer.ratingLow')}</Text>{radios}<Text size={200} className={s.scale}>{t('answer.ratingHigh')}</Text></div>
          : radios}
      </Field>
    );
  }
  if (q.kind === 'number') {
    return (
      <Field label={label} required={q.required} {...state} data-testid={testId}>
        <Input type="number" inputMode="decimal" placeholder={t('answer.number')} value={typeof value === 'number' ? String(value) : ''}
          onChange={(_, d) => onChange(d.value === '' ? null : Number(d.value))} data-testid="answer-input" />
      </Field>
    );
  }
  return (
    <Field label={label} required={q.required} {...state} data-testid={testId}>
      <Textarea placeholder={t('answer.text')} value={typeof value === 'string' ? value : ''} onChange={(_, d) => onChange(d.value)} data-testid="answer-input" />
    </Field>
  );
}
