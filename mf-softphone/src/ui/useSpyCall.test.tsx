import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '@tongdai/platform';
import { useSpyCall } from './useSpyCall';

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
const spyCall = (number: string | undefined, active = true) =>
  renderHook(({ n, a }) => useSpyCall(n, a), { wrapper, initialProps: { n: number, a: active } });

describe('a call to a spy code on the softphone', () => {
  it('names the agent and the mode instead of the code', () => {
    expect(spyCall('*222102').result.current.label).toBe('Giám sát 102 · Nghe');
    expect(spyCall('*223102').result.current.label).toBe('Giám sát 102 · Nhắc');
    expect(spyCall('*224105').result.current.label).toBe('Giám sát 105 · Tham gia');
  });

  it('any other number keeps its own display', () => {
    expect(spyCall('102').result.current.label).toBeNull();
    expect(spyCall('0912345678').result.current.label).toBeNull();
    expect(spyCall('*225102').result.current.label).toBeNull();
    expect(spyCall(undefined).result.current.label).toBeNull();
  });

  it('keys 4 / 5 / 6 during the call switch the mode shown; other keys do not', () => {
    const { result } = spyCall('*222102');
    act(() => result.current.onKey('6'));
    expect(result.current.label).toBe('Giám sát 102 · Tham gia');
    act(() => result.current.onKey('1'));
    expect(result.current.label).toBe('Giám sát 102 · Tham gia');
    act(() => result.current.onKey('5'));
    expect(result.current.label).toBe('Giám sát 102 · Nhắc');
    act(() => result.current.onKey('4'));
    expect(result.current.label).toBe('Giám sát 102 · Nghe');
  });

  it('the next call to the same code starts from its dialled mode again', () => {
    const { result, rerender } = spyCall('*222102');
    act(() => result.current.onKey('6'));
    rerender({ n: '*222102', a: false });
    rerender({ n: '*222102', a: true });
    expect(result.current.label).toBe('Giám sát 102 · Nghe');
  });

  it('keys pressed in an ordinary call change nothing', () => {
    const { result, rerender } = spyCall('0912345678');
    act(() => result.current.onKey('6'));
    rerender({ n: '*222102', a: true });
    expect(result.current.label).toBe('Giám sát 102 · Nghe');
  });
});
