import { render, screen } from '@testing-library/react';
import { dialCodeCol } from './columns';
import { queueEntity } from '../queue/queue.entity';
import { ivrEntity } from '../ivr-details/ivr.entity';
import { ringGroupEntity } from '../ringgroup/ringgroup.entity';

describe('the internal dial code of a queue / IVR (issue 16)', () => {
  it('is shown as the code any phone of the tenant dials: *41<id> for a queue, *42<id> for an IVR', () => {
    const ctx = {} as Parameters<ReturnType<typeof dialCodeCol>['render']>[1];
    render(<>{dialCodeCol('queue').render({ id: 3 }, ctx)}{dialCodeCol('ivr').render({ id: 12 }, ctx)}</>);
    expect(screen.getAllByTestId('row-dial_code').map((e) => e.textContent)).toEqual(['*413', '*4212']);
  });

  it("a ring group's list shows the code its members dial for the group's shared mailbox (*96<id>)", () => {
    const col = ringGroupEntity.columns.find((c) => c.key === 'mailbox_code')!;
    render(<>{col.render({ id: 7 } as never, {} as Parameters<typeof col.render>[1])}</>);
    expect(screen.getByTestId('row-mailbox_code').textContent).toBe('*967');
  });

  it('is a column of both lists, right after the name', () => {
    for (const e of [queueEntity, ivrEntity]) expect(e.columns.slice(0, 2).map((c) => c.key)).toEqual(['name', 'dial_code']);
  });
});
