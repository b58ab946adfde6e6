import { makeStyles, tokens } from '@fluentui/react-components';

/** The wall's styles, one place: tables in the normal view, large tiles in the wallboard. */
export const useMonitorStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px' },
  wall: { padding: '16px', background: tokens.colorNeutralBackground2, minHeight: '100vh', boxSizing: 'border-box' },
  toolbar: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  grow: { flexGrow: 1 },
  card: { background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4, padding: '12px', overflowX: 'auto' },
  section: { display: 'flex', flexDirection: 'column', gap: '8px' },
  tiles: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))', gap: '12px' },
  /** Wallboard queue tiles: room for three hero-sized figures side by side. */
  wallTiles: { gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 680px), 1fr))', gap: '16px' },
  agentTiles: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: '12px' },
  tile: {
    background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4,
    padding: '12px 16px', display: 'flex', flexDirection: 'column', gap: '6px', borderTop: '6px solid transparent',
  },
  green: { borderTopColor: tokens.colorPaletteGreenBorder2 },
  amber: { borderTopColor: tokens.colorPaletteMarigoldBorder2 },
  red: { borderTopColor: tokens.colorPaletteRedBorder2 },
  offline: { borderTopColor: tokens.colorNeutralStroke1, opacity: 0.7 },
  figures: { display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: '6px 12px' },
  figure: { display: 'flex', flexDirection: 'column' },
  big: { fontSize: tokens.fontSizeHero800, lineHeight: tokens.lineHeightHero800, fontWeight: tokens.fontWeightBold, fontVariantNumeric: 'tabular-nums' },
  huge: { fontSize: tokens.fontSizeHero1000, lineHeight: tokens.lineHeightHero1000, fontWeight: tokens.fontWeightBold, fontVariantNumeric: 'tabular-nums' },
  num: { fontVariantNumeric: 'tabular-nums' },
  muted: { color: tokens.colorNeutralForeground3 },
  waiting: { display: 'flex', justifyContent: 'space-between', gap: '8px', fontVariantNumeric: 'tabular-nums' },
  route: { display: 'inline-flex', gap: '4px', flexWrap: 'wrap', alignItems: 'center' },
  spy: { display: 'inline-flex', gap: '4px', flexWrap: 'wrap', alignItems: 'center' },
  /** Room for Nghe / Nhắc / Tham gia on one line. */
  spyColumn: { width: '272px' },
  /** A button's description, read by assistive technology, never drawn. */
  hidden: { display: 'none' },
  spyHelp: { display: 'flex', gap: '6px', alignItems: 'flex-start', color: tokens.colorNeutralForeground3 },
});
