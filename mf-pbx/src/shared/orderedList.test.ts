import { addItem, moveItem, removeAt } from './orderedList';

describe('ordered member lists', () => {
  it('adds at the end, once', () => {
    expect(addItem(['101'], '102')).toEqual(['101', '102']);
    expect(addItem(['101', '102'], '101')).toEqual(['101', '102']);
  });

  it('moves one place up or down and keeps the others in order', () => {
    const list = ['101', '102', '103', '104'];
    expect(moveItem(list, 2, -1)).toEqual(['101', '103', '102', '104']);
    expect(moveItem(list, 0, 1)).toEqual(['102', '101', '103', '104']);
    expect(list).toEqual(['101', '102', '103', '104']);
  });

  it('does nothing past either end', () => {
    expect(moveItem(['101', '102'], 0, -1)).toEqual(['101', '102']);
    expect(moveItem(['101', '102'], 1, 1)).toEqual(['101', '102']);
    expect(moveItem(['101'], 5, -1)).toEqual(['101']);
  });

  it('removes by position', () => {
    expect(removeAt(['101', '102', '103'], 1)).toEqual(['101', '103']);
  });
});
