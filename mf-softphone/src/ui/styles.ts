import { makeStyles, tokens } from '@fluentui/react-components';

/** The top bar is brand blue in both themes: controls there use the on-brand foreground. */
export const useSoftphoneStyles = makeStyles({
  /** Part of the host's one-line top bar: never wraps, never shrinks (the host's tenant name does). */
  root: { display: 'flex', alignItems: 'center', gap: '8px', whiteSpace: 'nowrap', flexShrink: 0 },
  onBrand: { color: tokens.colorNeutralForegroundOnBrand, minWidth: 'auto' },
  timer: { color: tokens.colorNeutralForegroundOnBrand, fontVariantNumeric: 'tabular-nums', fontWeight: tokens.fontWeightSemibold },
  /** The other side: a number, or "Giám sát 102 · Tham gia" on one line. */
  remote: { color: tokens.colorNeutralForegroundOnBrand, fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap' },
  hangup: {
    backgroundColor: tokens.colorPaletteRedBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorPaletteRedForeground1, color: tokens.colorNeutralForegroundOnBrand },
  },
  answer: {
    backgroundColor: tokens.colorPaletteGreenBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorPaletteGreenForeground1, color: tokens.colorNeutralForegroundOnBrand },
  },
  pad: { display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: '6px' },
  // Fluent buttons have a 96 px minimum width: three of them must fit the pad's columns.
  key: { minWidth: '0', width: '100%', fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  surface: { display: 'flex', flexDirection: 'column', gap: '10px', width: '210px' },
  /** The incoming-call and customer cards, stacked at the top right over every screen. */
  stack: { position: 'fixed', top: '64px', right: '16px', zIndex: 1000, width: '320px', display: 'flex', flexDirection: 'column', gap: '8px' },
  card: { boxShadow: tokens.shadow28, backgroundColor: tokens.colorNeutralBackground1 },
  details: { display: 'grid', gap: '4px', margin: 0 },
  detailRow: { display: 'grid', gridTemplateColumns: '96px 1fr', gap: '8px' },
  detailLabel: { color: tokens.colorNeutralForeground3 },
  detailValue: { margin: 0, overflowWrap: 'anywhere' },
  /** "Đang giữ máy": readable on the brand-blue top bar. */
  held: { color: tokens.colorNeutralForegroundOnBrand, fontStyle: 'italic', whiteSpace: 'nowrap' },
  /** "Qua hotline 02873001234 · Nhóm Kinh doanh" under the caller's number (not brand blue: that reads as a link here). */
  via: { color: tokens.colorNeutralForeground2, fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  number: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold, lineHeight: tokens.lineHeightHero700 },
  /** An icon with a counter on its corner (the missed calls on "Gần đây"). */
  badged: { position: 'relative', display: 'inline-flex' },
  counter: { position: 'absolute', top: '-8px', right: '-10px' },
  actions: { display: 'flex', gap: '8px', justifyContent: 'flex-end' },
});
