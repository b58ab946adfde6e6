import { Dropdown, Field, Option, Text, makeStyles, tokens } from '@fluentui/react-components';
import { displayForm, type CampaignFamily, type CampaignOptions } from '@tongdai/contracts';
import { SelectField, registerFieldKind, type FieldControlProps, type FieldDef, type Translate } from '@tongdai/ui';
import { useCampaignOptions } from './campaign.api';

/** The campaign form's own field kinds, registered with the entity kit; each reads the family's options. */
declare module '@tongdai/ui' {
  interface FieldKindOptions {
    /** Questions of a survey campaign, in the order they are chosen (the order the agent asks in). */
    campaignQuestions: { family: CampaignFamily };
    /** Accounts or teams who make the calls. */
    campaignAgents: { family: CampaignFamily };
    campaignTeams: { family: CampaignFamily };
    /** The calling window (a time group), none = any time. */
    campaignTimeGroup: { family: CampaignFamily };
    /** The caller ID; hotlines registered for advertising are marked (Decree 91). */
    campaignHotline: { family: CampaignFamily };
  }
}

type Props<K extends FieldDef['kind'], V> = FieldControlProps<Extract<FieldDef, { kind: K }>, V>;
type Item = { value: string; label: string };

const useStyles = makeStyles({
  order: { margin: '4px 0 0', paddingLeft: '20px', color: tokens.colorNeutralForeground2 },
});

const ids = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : []);

/** Several of a list, as a Fluent multiselect dropdown; `ordered` lists the choice in its order under it. */
function MultiPick(p: { name: string; label: string; items: Item[]; value: string[]; onChange: (v: string[]) => void; error?: string; placeholder: string; ordered?: boolean; disabled?: boolean; required?: boolean }) {
  const s = useStyles();
  const labelOf = new Map(p.items.map((i) => [i.value, i.label]));
  return (
    <Field label={p.label} required={p.required} validationMessage={p.error} validationState={p.error ? 'error' : 'none'}>
      <Dropdown
        multiselect placeholder={p.placeholder} disabled={p.disabled} data-testid={`field-${p.name}`}
        value={p.value.map((v) => labelOf.get(v) ?? v).join(', ')} selectedOptions={p.value}
        onOptionSelect={(_, d) => {
          const chosen = new Set(d.selectedOptions);
          // Keep the order of choosing: the earlier ones stay where they were, a new one goes last.
          p.onChange([...p.value.filter((v) => chosen.has(v)), ...d.selectedOptions.filter((v) => !p.value.includes(v))]);
        }}
      >
        {p.items.map((i) => <Option key={i.value} value={i.value} text={i.label}>{i.label}</Option>)}
      </Dropdown>
      {p.ordered && p.value.length > 0 && (
        <ol className={s.order} data-testid={`${p.name}-order`}>
          {p.value.map((v) => <li key={v}><Text size={200}>{labelOf.get(v) ?? v}</Text></li>)}
        </ol>
      )}
    </Field>
  );
}

const pick = (items: (o: CampaignOptions, t: Translate) => Item[], placeholder: string, ordered = false) =>
  function Control({ field, label, value, onChange, error, t, disabled }: Props<'campaignQuestions' | 'campaignAgents' | 'campaignTeams', string[]>) {
    const options = useCampaignOptions(field.family);
    return (
      <MultiPick name={field.name} label={label} items={options.data ? items(options.data, t) : []} value={value} onChange={onChange} error={error}
        placeholder={t(placeholder)} ordered={ordered} disabled={disabled} required={field.required} />
    );
  };

registerFieldKind('campaignQuestions', {
  wide: true, toDraft: ids,
  Control: pick((o) => o.questions.map((q) => ({ value: String(q.id), label: `${q.category_name}: ${q.text}` })), 'campaign.chooseQuestions', true),
});
registerFieldKind('campaignAgents', {
  toDraft: ids,
  Control: pick((o) => o.agents.map((a) => ({ value: String(a.id), label: a.extension ? `${a.name} (${a.extension})` : a.name })), 'campaign.chooseAgents'),
});
registerFieldKind('campaignTeams', {
  toDraft: ids,
  Control: pick((o) => o.teams.map((x) => ({ value: String(x.id), label: x.name })), 'campaign.chooseTeams'),
});

registerFieldKind('campaignTimeGroup', {
  Control: ({ field, label, value, onChange, error, t }: Props<'campaignTimeGroup', string>) => {
    const options = useCampaignOptions(field.family);
    return (
      <SelectField name={field.name} label={label} value={String(value)} onChange={onChange} error={error}
        options={(options.data?.time_groups ?? []).map((g) => ({ value: String(g.id), label: g.name }))} placeholder={t('campaign.anyTime')} />
    );
  },
});

registerFieldKind('campaignHotline', {
  Control: ({ field, label, value, onChange, error, t }: Props<'campaignHotline', string>) => {
    const options = useCampaignOptions(field.family);
    return (
      <SelectField name={field.name} label={label} value={String(value)} onChange={onChange} error={error} required={field.required}
        options={(options.data?.hotlines ?? []).map((h) => ({ value: String(h.id), label: h.advertising_identity ? `${displayForm(h.number)} — ${t('campaign.advertisingIdentity')}` : displayForm(h.number) }))}
        placeholder={t('campaign.chooseHotline')} />
    );
  },
});
