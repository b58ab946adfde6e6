// Jest's @fluentui/react-components (jest.fluent.js): each export from its own package, when first asked.
const { components } = require('./node_modules/.cache/tongdai-jest/fluent.json');

const loaded = {};
Object.defineProperty(loaded, '__esModule', { value: true });
module.exports = new Proxy(loaded, {
  get(t, name) {
    if (typeof name !== 'string' || name in t) return t[name];
    const at = components[name];
    return at ? (t[name] = require(at[0])[at[1]]) : undefined;
  },
  has: (t, name) => name in t || (typeof name === 'string' && name in components),
});
