import { useRef, useState } from 'react';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { AttachRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { UI_NS } from './i18n';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  name: { color: tokens.colorNeutralForeground2, wordBreak: 'break-all' },
});

/**
 * A file picker that speaks Vietnamese: the browser's own control (which says "Choose file /
 * No file chosen" in the browser's language) stays in the DOM but hidden, behind a "Chọn tệp"
 * button and the chosen file's name. `testId` names the hidden input (tests set files on it).
 */
export function FileInput(p: { accept: string; testId: string; label: string; name?: string; onChange: (file: File | null) => void }) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <span className={s.root}>
      <input
        ref={input} type="file" hidden name={p.name} accept={p.accept} aria-label={p.label} data-testid={p.testId}
        onChange={(e) => {
          const file = e.target.files?.[0] ?? null;
          setChosen(file?.name ?? null);
          p.onChange(file);
        }}
      />
      <Button type="button" icon={<AttachRegular />} onClick={() => input.current?.click()}>{t('chooseFile')}</Button>
      <Text className={s.name}>{chosen ?? t('noFileChosen')}</Text>
    </span>
  );
}
