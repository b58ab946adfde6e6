/**
 * Jest's stand-ins for Fluent UI's index modules (jest.fluent.js at the root) give what the real
 * modules give: every component export the same value (the same module the index takes it from),
 * every icon name known and, loaded, the same icon (its own per-icon module: same name, same SVG).
 */
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import * as components from '@fluentui/react-components';
import * as icons from '@fluentui/react-icons';

type Exports = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const map = require('../../../jest.fluent.js') as { FLUENT_MAP: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const where = require(map.FLUENT_MAP) as { componentsIndex: string; iconsRoot: string; components: Record<string, unknown>; icons: Record<string, string> };

describe('Fluent UI in Jest (jest.fluent.js)', () => {
  it('@fluentui/react-components: the same exports as the real index, each the same value', () => {
    // By its path, which the stand-in's mapping does not catch: the real index, all of it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const real = require(where.componentsIndex) as Exports;
    const names = Object.keys(real);
    expect(names.length).toBeGreaterThan(1000);
    expect(Object.keys(where.components).sort()).toEqual([...names].sort());
    const standIn = components as unknown as Exports;
    expect(names.filter((n) => standIn[n] !== real[n])).toEqual([]);
    expect(standIn.NotAnExport).toBeUndefined();
  });

  it('@fluentui/react-icons: every name of the real index, and an icon loaded is the same icon', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const real = require(`${where.iconsRoot}/lib-cjs/index.cjs`) as Exports;
    const standIn = icons as unknown as Exports;
    const names = Object.keys(real);
    expect(names.length).toBeGreaterThan(20_000);
    // Every name is found without loading the index: an icon of its own module, or a utility loaded with the stand-in.
    expect(names.filter((n) => !(n in where.icons) && !Object.prototype.hasOwnProperty.call(standIn, n))).toEqual([]);
    // Utilities are the very same functions; icons rendered the same, for one name in 60 and the ones the app uses.
    for (const n of ['createFluentIcon', 'bundleIcon', 'wrapIcon', 'useIconContext', 'iconFilledClassName']) expect(standIn[n]).toBe(real[n]);
    const sample = [...names.filter((n) => n in where.icons && names.indexOf(n) % 60 === 0), 'DismissRegular', 'CallRegular', 'ChevronDownRegular', 'Add20Regular'];
    for (const n of sample) {
      const html = (m: Exports) => renderToStaticMarkup(createElement(m[n] as ComponentType));
      expect([n, html(standIn)]).toEqual([n, html(real)]);
    }
  });
});
