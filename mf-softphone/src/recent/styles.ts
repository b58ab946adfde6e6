import { makeStyles, tokens } from '@fluentui/react-components';

export const useRecentStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', gap: '8px', width: '340px', maxHeight: '420px' },
  title: { margin: 0 },
  list: { listStyle: 'none', margin: 0, padding: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column' },
  row: {
    display: 'grid', gridTemplateColumns: '20px 1fr auto', alignItems: 'center', gap: '8px', width: '100%', padding: '6px 4px',
    border: 'none', borderRadius: tokens.borderRadiusMedium, background: 'none', color: tokens.colorNeutralForeground1,
    textAlign: 'start', cursor: 'pointer', font: 'inherit',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
    ':disabled': { cursor: 'default', color: tokens.colorNeutralForeground1 },
  },
  who: { display: 'flex', flexDirection: 'column', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' },
  /** One line each (name, then direction · time · result): a long one ends in … rather than wrapping. */
  line: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  icon: { fontSize: '18px', color: tokens.colorNeutralForeground3 },
  missed: { color: tokens.colorPaletteRedForeground1 },
  meta: { color: tokens.colorNeutralForeground3 },
  talk: { fontVariantNumeric: 'tabular-nums', color: tokens.colorNeutralForeground2 },
});
