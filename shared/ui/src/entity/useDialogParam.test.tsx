import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { useListParams } from '../ListPage';
import { useDialogParam } from './EntityFormDialog';

/** A list's filters and its dialog: two hooks over one URL, changed before the screen renders again. */
function Screen() {
  const list = useListParams(['category']);
  const dialog = useDialogParam();
  const { search } = useLocation();
  return (
    <>
      <output data-testid="search">{search}</output>
      <output data-testid="dialog">{dialog.value ?? ''}</output>
      <button onClick={() => { dialog.close(); dialog.open('new'); }}>close then add</button>
      <button onClick={() => { list.setFilter('category', '4'); dialog.open('new'); }}>filter then add</button>
      <button onClick={() => { dialog.open('9'); list.setPage(3); }}>edit then page</button>
    </>
  );
}

const start = (url: string) => render(<MemoryRouter initialEntries={[url]}><Screen /></MemoryRouter>);
const click = (name: string) => act(() => screen.getByText(name).click());

it('a dialog closed and the next one opened at once: the new one is open', () => {
  start('/survey/question?dialog=5');
  click('close then add');
  expect(screen.getByTestId('dialog').textContent).toBe('new');
  expect(screen.getByTestId('search').textContent).toBe('?dialog=new');
});

it('a filter changed and a dialog opened before the next render: both stay, in either order', () => {
  start('/survey/question?search=a');
  click('filter then add');
  expect(screen.getByTestId('search').textContent).toBe('?search=a&category=4&dialog=new');
  click('edit then page');
  expect(screen.getByTestId('search').textContent).toBe('?search=a&category=4&dialog=9&page=3');
});
