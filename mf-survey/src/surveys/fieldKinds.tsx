import { useState } from 'react';
import { Button, Field, Input, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { SURVEY_QUESTION_KINDS, isChoiceKind, type SurveyAnswerValue, type SurveyQuestionKind } from '@tongdai/contracts';
import { SelectField, registerFieldKind, useApiError, type FieldControlProps, type FieldDef } from '@tongdai/ui';
import { useAudioOptions, useCategoryOptions } from './survey.api';
import { SurveyQuestionView } from './SurveyQuestionView';

/** The survey area's own field kinds, registered with the entity kit. */
declare module '@tongdai/ui' {
  interface FieldKindOptions {
    /** One of the tenant's survey categories. */
    surveyCategory: object;
    /** The options of a choice question, one input each, added and removed. */
    surveyOptions: object;
    /** The question being edited, as the agent will see it (reads the whole form). */
    questionPreview: object;
    /** One of the tenant's greetings played as the question by an automated voice survey; "" = spoken. */
    surveyAudio: { hint?: boolean };
  }
}

type Props<K extends FieldDef['kind'], V> = FieldControlProps<Extract<FieldDef, { kind: K }>, V>;

const useStyles = makeStyles({
  options: { display: 'flex', flexDirection: 'column', gap: '6px' },
  option: { display: 'flex', gap: '6px', alignItems: 'center' },
  grow: { flexGrow: 1 },
  preview: {
    border: `1px dashed ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, padding: '12px 16px',
    background: tokens.colorNeutralBackground2,
  },
  error: { color: tokens.colorPaletteRedForeground1 },
});

function CategoryControl({ field, label, value, onChange, error, t }: Props<'surveyCategory', string>) {
  const options = useCategoryOptions();
  return (
    <SelectField name={field.name} label={label} value={String(value)} onChange={onChange} error={error} required={field.required}
      options={(options.data ?? []).map((o) => ({ value: String(o.id), label: o.name }))} placeholder={t('question.chooseCategory')} />
  );
}

function AudioControl({ field, label, value, onChange, error, hint, t, disabled }: Props<'surveyAudio', string>) {
  const options = useAudioOptions();
  const loadError = useApiError(options.error);
  const files = (options.data ?? []).map((o) => ({ value: String(o.id), label: o.name }));
  // A saved file the list no longer offers still shows (by its id) rather than reading as "spoken".
  const shown = value && options.isSuccess && !files.some((f) => f.value === value) ? [...files, { value, label: `#${value}` }] : files;
  const message = error ?? (loadError ? loadError.message : undefined);
  return (
    <Field label={label} hint={hint} validationMessage={message} validationState={message ? 'error' : 'none'}>
      <Select name={field.name} value={value} disabled={disabled} onChange={(_, d) => onChange(d.value)} data-testid={`field-${field.name}`}>
        <option value="">{t('question.spoken')}</option>
        {shown.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
      </Select>
    </Field>
  );
}

function OptionsControl({ label, value, onChange, error, errors, t }: Props<'surveyOptions', string[]>) {
  const s = useStyles();
  // A choice question starts with two empty options; they are stored only once the kind is a choice (the schema drops them otherwise).
  const rows = value.length >= 2 ? value : [...value, ...Array<string>(2 - value.length).fill('')];
  const set = (i: number, text: string) => onChange(rows.map((o, j) => (j === i ? text : o)));
  return (
    <div role="group" aria-label={label} className={s.options} data-testid="field-options">
      <Text weight="semibold">{label}</Text>
      {rows.map((o, i) => (
        <div key={i} className={s.option}>
          <Field className={s.grow} validationMessage={errors[`options.${i}`]} validationState={errors[`options.${i}`] ? 'error' : 'none'}>
            <Input value={o} onChange={(_, d) => set(i, d.value)} placeholder={t('question.optionPlaceholder', { n: i + 1 })}
              aria-label={t('question.optionPlaceholder', { n: i + 1 })} data-testid="option-input" />
          </Field>
          <Button appearance="subtle" icon={<DeleteRegular />} aria-label={t('question.removeOption', { n: i + 1 })}
            onClick={() => onChange(rows.filter((_, j) => j !== i))} data-testid="option-remove" />
        </div>
      ))}
      {error && <Text role="alert" size={200} className={s.error} data-testid="options-error">{error}</Text>}
      <div><Button icon={<AddRegular />} onClick={() => onChange([...rows, ''])} data-testid="option-add">{t('question.addOption')}</Button></div>
    </div>
  );
}

/** The question as the form stands, answerable (nothing is saved): what the agent will see. */
function PreviewControl({ label, draft = {} }: Props<'questionPreview', null>) {
  const s = useStyles();
  const [answer, setAnswer] = useState<SurveyAnswerValue>(null);
  const kind = (SURVEY_QUESTION_KINDS as readonly string[]).includes(String(draft.kind)) ? (draft.kind as SurveyQuestionKind) : 'text';
  const options = isChoiceKind(kind) && Array.isArray(draft.options) ? (draft.options as string[]).filter((o) => o.trim() !== '') : [];
  return (
    <section aria-label={label} className={s.preview} data-testid="question-preview">
      <Text as="h2" size={300} weight="semibold" block style={{ marginBottom: 8 }}>{label}</Text>
      <SurveyQuestionView key={kind} number={1} value={answer} onChange={setAnswer}
        question={{ kind, text: String(draft.text ?? '').trim(), options, required: draft.required === true }} />
    </section>
  );
}

registerFieldKind('surveyCategory', { Control: CategoryControl });
registerFieldKind('surveyOptions', { Control: OptionsControl, wide: true, toDraft: (x) => (Array.isArray(x) ? x.map(String) : []) });
registerFieldKind('surveyAudio', { Control: AudioControl });
registerFieldKind('questionPreview', { Control: PreviewControl, wide: true, toDraft: () => null });
