import { act, fireEvent, render, screen } from '@testing-library/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { i18n } from '@tongdai/platform';
import type { Paged } from '@tongdai/contracts';
import { ListPage, type useListParams } from './ListPage';

/**
 * The search box against a URL the test moves itself: a loaded machine's router shows a change
 * seconds after the box asked for it, and a user types on (or clears the box) meanwhile.
 */
type Row = { id: number };
const query = { isPending: false, isError: false, error: null, data: { data: [], meta: { total: 0, per_page: 10, current_page: 1 } } } as unknown as UseQueryResult<Paged<Row>>;

function screenWith(search: string, setSearch: (s: string) => void) {
  const list = { page: 1, search, filters: {}, setPage: () => {}, setSearch, setFilter: () => {} } as ReturnType<typeof useListParams>;
  return (
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <ListPage title="Danh sách" testId="l" query={query} columns={[]} rowKey={(r: Row) => r.id} list={list} />
      </MemoryRouter>
    </I18nextProvider>
  );
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const box = () => screen.getByTestId('search') as HTMLInputElement;
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
const wait = (ms: number) => act(() => { jest.advanceTimersByTime(ms); });

it('applies a search 300 ms after the last key, trimmed, once', () => {
  const asked: string[] = [];
  render(screenWith('', (s) => asked.push(s)));
  type('09');
  wait(200);
  type(' 0912 ');
  wait(299);
  expect(asked).toEqual([]);
  wait(1);
  expect(asked).toEqual(['0912']);
});

it('a box cleared before the router showed the search it asked for stays cleared, and the clearing is applied', () => {
  const asked: string[] = [];
  const setSearch = (s: string) => asked.push(s);
  const { rerender } = render(screenWith('', setSearch));
  type('0398069327');
  wait(300);
  expect(asked).toEqual(['0398069327']);
  type(''); // the user clears the box; the router has not shown the first search yet
  wait(300);
  rerender(screenWith('0398069327', setSearch)); // now it does
  expect(box().value).toBe('');
  wait(300);
  expect(asked).toEqual(['0398069327', '']);
  rerender(screenWith('', setSearch));
  wait(1000);
  expect(box().value).toBe('');
  expect(asked).toEqual(['0398069327', '']);
});

it('typed on past two searches the router shows late: the box keeps what was typed last', () => {
  const asked: string[] = [];
  const setSearch = (s: string) => asked.push(s);
  const { rerender } = render(screenWith('', setSearch));
  type('An');
  wait(300);
  type('Anh');
  wait(300);
  type('Anh Tú');
  rerender(screenWith('An', setSearch));
  rerender(screenWith('Anh', setSearch));
  expect(box().value).toBe('Anh Tú');
  wait(300);
  expect(asked).toEqual(['An', 'Anh', 'Anh Tú']);
});

it('a search from elsewhere (back, a link) replaces what is in the box, and is not asked for again', () => {
  const asked: string[] = [];
  const setSearch = (s: string) => asked.push(s);
  const { rerender } = render(screenWith('', setSearch));
  type('An');
  wait(300);
  rerender(screenWith('An', setSearch));
  rerender(screenWith('Bình', setSearch));
  expect(box().value).toBe('Bình');
  wait(1000);
  expect(asked).toEqual(['An']);
});
