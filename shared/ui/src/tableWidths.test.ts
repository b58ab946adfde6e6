import { headerWidth, tableWidths, twoLineChars } from './tableWidths';

it('splits a header in two at the space that makes its longer line shortest', () => {
  expect(twoLineChars('Luồng cuộc gọi')).toBe(8); // "Luồng" / "cuộc gọi"
  expect(twoLineChars('Điểm đến mặc định của cuộc gọi vào')).toBe(17); // "Điểm đến mặc định" / "của cuộc gọi vào"
  expect(twoLineChars('Chờ')).toBe(3);
  expect(twoLineChars('')).toBe(0);
  expect(headerWidth('')).toBeUndefined();
  expect(headerWidth('Luồng cuộc gọi')).toBe('calc(5.6em + 24px)');
});

it('raises a column\'s width to its header\'s need and makes the sharing columns\' share the largest need among them', () => {
  const { widths, minWidth } = tableWidths([
    { header: 'Thời gian', width: '6.5em' },
    { header: 'Luồng cuộc gọi' },
    { header: 'Chờ' },
    { header: '', width: '84px' },
  ]);
  expect(widths).toEqual(['max(6.5em, calc(2.8em + 24px))', undefined, undefined, '84px']);
  // Two sharing columns, each given the widest of 5.5em and their headers' needs: "Chờ" is not squeezed by "Luồng cuộc gọi".
  expect(minWidth).toBe('calc(max(6.5em, calc(2.8em + 24px)) + 16px + 84px + 16px + 2 * max(5.5em, calc(5.6em + 24px), calc(2.1em + 24px)))');
});

it('a table of fixed columns only is as wide as they are, with their padding', () => {
  expect(tableWidths([{ header: 'Ghi âm', width: '5.5em' }]).minWidth).toBe('calc(max(5.5em, calc(2.1em + 24px)) + 16px)');
  expect(tableWidths([]).minWidth).toBe('0');
});
