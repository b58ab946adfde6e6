/**
 * Ordered member lists (ring group extensions, queue agents): the order is the hunt order, so
 * every change returns a new list and never reorders what the user did not touch.
 */

/** Appends `item` unless it is already there. */
export function addItem<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? [...list] : [...list, item];
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

/** Moves the item at `index` one place up (-1) or down (+1); out of range leaves the list as it is. */
export function moveItem<T>(list: readonly T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}
