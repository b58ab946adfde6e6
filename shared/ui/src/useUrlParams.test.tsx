import { useState } from 'react';
import { flushSync } from 'react-dom';
import { act, render, screen } from '@testing-library/react';
import { BrowserRouter, MemoryRouter, useLocation } from 'react-router-dom';
import { useUrlParams } from './useUrlParams';

/** Two filters changed before the screen renders again (a quick user, a loaded machine): both stay. */
function Filters() {
  const [params, setParams] = useUrlParams();
  const [renders, setRenders] = useState(0);
  const { search } = useLocation();
  return (
    <>
      <output data-testid="search">{search}</output>
      <output data-testid="direction">{params.get('direction') ?? ''}</output>
      <button onClick={() => { setParams((p) => p.set('direction', 'outbound')); setParams((p) => p.set('range', 'last7')); }}>both</button>
      <button onClick={() => setParams((p) => p.delete('range'), { replace: true })}>clear range</button>
      {/* A render between two changes (the list's data arriving) while the first one's URL is still in its transition. */}
      <button onClick={() => { setParams((p) => p.set('extension', '102')); flushSync(() => setRenders(renders + 1)); setParams((p) => p.set('range', 'today')); }}>render between</button>
    </>
  );
}

it('keeps every change made before the next render, and removes what is deleted', () => {
  render(<MemoryRouter initialEntries={['/r?page=2']}><Filters /></MemoryRouter>);
  act(() => screen.getByText('both').click());
  expect(screen.getByTestId('search').textContent).toBe('?page=2&direction=outbound&range=last7');
  expect(screen.getByTestId('direction').textContent).toBe('outbound');
  act(() => screen.getByText('clear range').click());
  expect(screen.getByTestId('search').textContent).toBe('?page=2&direction=outbound');
});

it('keeps a change whose URL is still in its transition when the screen renders in between', () => {
  render(<MemoryRouter initialEntries={['/r?direction=internal']}><Filters /></MemoryRouter>);
  act(() => screen.getByText('render between').click());
  expect(screen.getByTestId('search').textContent).toBe('?direction=internal&extension=102&range=today');
});

it('in the browser starts each change from the address bar, which holds a change React has not rendered yet', () => {
  window.history.replaceState(null, '', '/r?direction=internal');
  render(<BrowserRouter><Filters /></BrowserRouter>);
  // The address bar moved on (a change whose render is still to come) while the screen shows the old query.
  window.history.replaceState(null, '', '/r?direction=outbound&extension=102');
  act(() => screen.getByText('clear range').click());
  expect(window.location.search).toBe('?direction=outbound&extension=102');
  expect(screen.getByTestId('search').textContent).toBe('?direction=outbound&extension=102');
});
