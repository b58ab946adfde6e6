// Jest's @fluentui/react-icons (jest.fluent.js): each icon from its own module, when first asked.
const { iconUtils, icons, iconsRoot } = require('./node_modules/.cache/tongdai-jest/fluent.json');

const loaded = {};
Object.defineProperty(loaded, '__esModule', { value: true });
for (const file of iconUtils) Object.assign(loaded, require(file));
let everything = null;
module.exports = new Proxy(loaded, {
  get(t, name) {
    if (typeof name !== 'string' || name in t) return t[name];
    const file = icons[name];
    if (file) Object.assign(t, require(`${iconsRoot}/lib-cjs/atoms/svg/${file}`));
    // Anything else the index has (none known): the index itself, as without the stand-in.
    else if (name in (everything ??= require(`${iconsRoot}/lib-cjs/index.cjs`))) t[name] = everything[name];
    return t[name];
  },
  has: (t, name) => name in t || (typeof name === 'string' && name in icons),
});
