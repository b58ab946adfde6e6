import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import type { Destination } from '@tongdai/contracts';
import { DestinationField } from './DestinationField';
import { DestinationsError, fetchDestinations } from './pbx.api';

const mockGet = jest.fn();
jest.mock('@tongdai/platform', () => ({ ...jest.requireActual('@tongdai/platform'), pbxApi: () => ({ get: mockGet }) }));

// jsdom has no fetch Response: the fields fetchDestinations reads.
const answer = (status: number, body: unknown) => Promise.resolve({ status, json: () => Promise.resolve(body) });
const MAP = { ivr: { '3': 'Menu chính' }, direct: { '101': '101 - Quản trị viên' }, group: { '7': 'Kinh doanh', '8': 'Chăm sóc' } };

let last: Destination | null | undefined;
function Harness({ initial, required }: { initial: Destination | null; required?: boolean }) {
  const [value, setValue] = useState(initial);
  return (
    <DestinationField name="destination" label="Điểm đến" value={value} required={required} noneLabel={required ? undefined : 'Ngắt máy'}
      onChange={(d) => { last = d; setValue(d); }} />
  );
}
const renderField = (initial: Destination | null, required = false) =>
  render(<QueryClientProvider client={new QueryClient()}><Harness initial={initial} required={required} /></QueryClientProvider>);
const type = () => screen.getByTestId('field-destination-type') as HTMLSelectElement;
const target = () => screen.getByTestId('field-destination-target') as HTMLSelectElement | HTMLInputElement;

describe('fetchDestinations (SPEC §7/§8)', () => {
  it('turns the nested map into name/value pairs', async () => {
    mockGet.mockImplementation(() => answer(200, { data: MAP }));
    const options = await fetchDestinations();
    expect(options.map((o) => [o.value, o.name])).toEqual([
      ['ivr:3', 'IVR: Menu chính'], ['direct:101', 'Máy nhánh: 101 - Quản trị viên'], ['group:8', 'Nhóm đổ chuông: Chăm sóc'], ['group:7', 'Nhóm đổ chuông: Kinh doanh'],
    ]);
    expect(mockGet.mock.calls[0][0]).toBe('partner/destinations');
  });

  it('raises an error carrying the status when the answer is not 200', async () => {
    mockGet.mockImplementation(() => answer(503, { message: 'x' }));
    const err = await fetchDestinations().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DestinationsError);
    expect((err as DestinationsError).status).toBe(503);
    expect((err as Error).message).toBe('Không tải được danh sách điểm đến (mã 503)');
  });
});

describe('DestinationField', () => {
  it('optional: the empty type is "Ngắt máy" (null); choosing a type then a target gives type and target', async () => {
    mockGet.mockImplementation(() => answer(200, { data: MAP }));
    renderField(null);
    expect(type().options[0].text).toBe('Ngắt máy');
    expect((target() as HTMLSelectElement).disabled).toBe(true);
    fireEvent.change(type(), { target: { value: 'group' } });
    expect(last).toEqual({ type: 'group', target: '' });
    await screen.findByRole('option', { name: 'Kinh doanh' });
    fireEvent.change(target(), { target: { value: '7' } });
    expect(last).toEqual({ type: 'group', target: '7' });
    fireEvent.change(type(), { target: { value: '' } });
    expect(last).toBeNull();
  });

  it('fw: the target is a typed number, not a select', () => {
    mockGet.mockImplementation(() => answer(200, { data: MAP }));
    renderField(null, true);
    expect(type().options[0].text).toBe('Chọn loại điểm đến');
    fireEvent.change(type(), { target: { value: 'fw' } });
    expect(target().tagName).toBe('INPUT');
    fireEvent.change(target(), { target: { value: '0901234567' } });
    expect(last).toEqual({ type: 'fw', target: '0901234567' });
  });

  it('says when a type has no objects yet', async () => {
    mockGet.mockImplementation(() => answer(200, { data: MAP }));
    renderField({ type: 'queue', target: '' });
    expect(await screen.findByRole('option', { name: 'Chưa có đối tượng nào' })).toBeTruthy();
  });

  it('keeps showing a saved target that is no longer offered', async () => {
    mockGet.mockImplementation(() => answer(200, { data: MAP }));
    renderField({ type: 'ivr', target: '99' });
    await screen.findByRole('option', { name: 'Menu chính' });
    expect((target() as HTMLSelectElement).value).toBe('99');
  });

  it('shows the destinations error with its status under the field', async () => {
    mockGet.mockImplementation(() => answer(500, {}));
    renderField(null);
    expect(await screen.findByText('Không tải được danh sách điểm đến (mã 500)')).toBeTruthy();
  });

  it('gives its two controls their own ids (inside one Field they would share the Field\'s id)', () => {
    mockGet.mockImplementation(() => answer(200, { data: MAP }));
    renderField({ type: 'group', target: '7' });
    expect(type().id).toBeTruthy();
    expect(target().id).toBeTruthy();
    expect(type().id).not.toBe(target().id);
    expect(document.querySelectorAll(`[id="${type().id}"]`)).toHaveLength(1);
  });
});
