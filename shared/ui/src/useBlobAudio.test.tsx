import { act, fireEvent, render, screen } from '@testing-library/react';
import { MSG } from '@tongdai/contracts';
import { useBlobAudio, type BlobAudioOptions } from './useBlobAudio';

// jsdom has neither media playback nor object URLs: doubles that behave like the browser's.
let urls = 0;
const created: string[] = [];
const revoked: string[] = [];
beforeAll(() => {
  Object.assign(URL, {
    createObjectURL: (b: Blob) => { const u = `blob:test/${++urls}-${b.size}`; created.push(u); return u; },
    revokeObjectURL: (u: string) => { revoked.push(u); },
  });
  const set = (el: HTMLMediaElement, paused: boolean, ...events: string[]) => {
    Object.defineProperty(el, 'paused', { value: paused, configurable: true });
    for (const event of events) el.dispatchEvent(new Event(event));
  };
  // As the browser: 'play' as it is asked to, 'playing' once sound comes.
  HTMLMediaElement.prototype.play = jest.fn(function (this: HTMLMediaElement) { set(this, false, 'play', 'playing'); return Promise.resolve(); });
  HTMLMediaElement.prototype.pause = jest.fn(function (this: HTMLMediaElement) { set(this, true, 'pause'); });
});
beforeEach(() => { created.length = 0; revoked.length = 0; jest.clearAllMocks(); });

function Player({ name, load, options }: { name: string; load: () => Promise<Blob>; options?: BlobAudioOptions }) {
  const p = useBlobAudio(load, options);
  return (
    <div>
      <button onClick={() => void p.toggle()} data-testid={`${name}-toggle`}>{p.status}</button>
      {p.error && <span data-testid={`${name}-error`}>{p.error}</span>}
      <audio ref={p.ref} {...p.events} data-testid={`${name}-audio`} />
    </div>
  );
}

const wav = () => Promise.resolve(new Blob([new Uint8Array(44)], { type: 'audio/wav' }));
const press = async (name: string) => { await act(async () => { fireEvent.click(screen.getByTestId(`${name}-toggle`)); }); };
const status = (name: string) => screen.getByTestId(`${name}-toggle`).textContent;
const audio = (name: string) => screen.getByTestId(`${name}-audio`) as HTMLAudioElement;

describe('useBlobAudio', () => {
  it('first press fetches the bytes once into an object URL and plays; then pause and replay from the same URL', async () => {
    const load = jest.fn(wav);
    render(<Player name="a" load={load} />);
    expect(status('a')).toBe('idle');
    await press('a');
    expect(load).toHaveBeenCalledTimes(1);
    expect(audio('a').src).toBe('blob:test/1-44');
    expect(status('a')).toBe('playing');
    await press('a');
    expect(status('a')).toBe('paused');
    await press('a');
    expect(status('a')).toBe('playing');
    expect(load).toHaveBeenCalledTimes(1);
    expect(created).toEqual(['blob:test/1-44']);
  });

  it('starting a second clip pauses the first', async () => {
    render(<><Player name="a" load={wav} /><Player name="b" load={wav} /></>);
    await press('a');
    await press('b');
    expect(status('a')).toBe('paused');
    expect(status('b')).toBe('playing');
  });

  it('the end of the clip reads as paused; unmount stops it and revokes the URL', async () => {
    const { unmount } = render(<Player name="a" load={wav} />);
    await press('a');
    act(() => {
      Object.defineProperty(audio('a'), 'paused', { value: true, configurable: true });
      audio('a').dispatchEvent(new Event('ended'));
    });
    expect(status('a')).toBe('paused');
    await press('a');
    expect(HTMLMediaElement.prototype.pause).not.toHaveBeenCalled();
    unmount();
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
    expect(revoked).toEqual(created);
  });

  it('a failed fetch shows the message and plays nothing', async () => {
    render(<Player name="a" load={() => Promise.reject(new Error('network'))} />);
    await press('a');
    expect(status('a')).toBe('error');
    expect(screen.getByTestId('a-error').textContent).toBe(MSG.generic);
    expect(HTMLMediaElement.prototype.play).not.toHaveBeenCalled();
    expect(created).toEqual([]);
  });

  it("a play from the element's own controls pauses the clip playing elsewhere", async () => {
    render(<><Player name="a" load={wav} /><Player name="b" load={wav} /></>);
    await press('a');
    await press('b');
    await press('a');
    expect(status('b')).toBe('paused');
    // The user presses play on b's native controls: a stops.
    await act(async () => { await audio('b').play(); });
    expect(status('a')).toBe('paused');
    expect(status('b')).toBe('playing');
  });

  it('a second press while the bytes are loading does not fetch them again', async () => {
    let resolve: (b: Blob) => void = () => undefined;
    const load = jest.fn(() => new Promise<Blob>((r) => { resolve = r; }));
    render(<Player name="a" load={load} />);
    await press('a');
    expect(status('a')).toBe('loading');
    await press('a');
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => { resolve(new Blob([new Uint8Array(8)])); });
    expect(status('a')).toBe('playing');
    expect(created).toHaveLength(1);
  });

  it("messageOf names a refusal in the area's words (a 404: the recording is gone)", async () => {
    const notFound = Object.assign(new Error('HTTPError'), { name: 'HTTPError', response: { status: 404, clone: () => ({ json: () => Promise.reject(new Error('not JSON')) }) } });
    render(<Player name="a" load={() => Promise.reject(notFound)} options={{ messageOf: (e) => (e.status === 404 ? 'Đã bị xoá' : e.message) }} />);
    await press('a');
    expect(screen.getByTestId('a-error').textContent).toBe('Đã bị xoá');
  });

  it('a play the browser holds back for want of a gesture is no error: the clip waits, paused', async () => {
    (HTMLMediaElement.prototype.play as jest.Mock).mockImplementationOnce(() => Promise.reject(new DOMException('no gesture', 'NotAllowedError')));
    render(<Player name="a" load={wav} />);
    await press('a');
    expect(status('a')).toBe('paused');
    expect(screen.queryByTestId('a-error')).toBeNull();
    expect(audio('a').src).toBe(created[0]);
  });
});
