import { displayName } from './placed-leg';

describe("a placed leg's From display name (a click-to-call's \"Gọi cho …\", ADR 0066)", () => {
  it('is quoted, with a space before the URI; none gives nothing', () => {
    expect(displayName('Gọi cho 0912000801')).toBe('"Gọi cho 0912000801" ');
    expect(displayName(undefined)).toBe('');
    expect(displayName('')).toBe('');
  });

  it('escapes quotes and backslashes and cannot break the header with a line break', () => {
    expect(displayName('a "b" \\c')).toBe('"a \\"b\\" \\\\c" ');
    expect(displayName('x\r\nVia: evil')).toBe('"x  Via: evil" ');
  });
});
