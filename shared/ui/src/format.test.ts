import { formatDuration, formatFileSize, maskPhone } from './format';

describe('formatFileSize', () => {
  it('shows KB under 1024 KB and MB from there', () => {
    expect(formatFileSize(512)).toBe('0.5 KB');
    expect(formatFileSize(1023 * 1024)).toBe('1023 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1 MB');
    expect(formatFileSize(5.5 * 1024 * 1024)).toBe('5.5 MB');
  });
});

describe('formatDuration', () => {
  it('shows mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(65)).toBe('01:05');
    expect(formatDuration(3599)).toBe('59:59');
    expect(formatDuration(3600)).toBe('60:00');
    expect(formatDuration(-3)).toBe('00:00');
  });
});

describe('maskPhone', () => {
  it('hides three digits with *** in the middle by default', () => {
    expect(maskPhone('0912345678')).toBe('091***5678');
  });
  it('hides from the configured position', () => {
    expect(maskPhone('0912345678', 7)).toBe('0912345***');
    expect(maskPhone('0912345678', 9)).toBe('0912345***');
    expect(maskPhone('0912345678', 1)).toBe('0***345678');
  });
  it('leaves very short numbers alone', () => {
    expect(maskPhone('113')).toBe('113');
  });
});
