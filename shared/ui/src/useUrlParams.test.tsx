import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { useUrlParams } from './useUrlParams';

/** Two filters changed before the screen renders again (a quick user, a loaded machine): both stay. */
function Filters() {
  const [params, setParams] = useUrlParams();
  const { search } = useLocation();
  return (
    <>
      <output data-testid="search">{search}</output>
      <output data-testid="direction">{params.get('direction') ?? ''}</output>
      <button onClick={() => { setParams((p) => p.set('direction', 'outbound')); setParams((p) => p.set('range', 'last7')); }}>both</button>
      <button onClick={() => setParams((p) => p.delete('range'), { replace: true })}>clear range</button>
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
