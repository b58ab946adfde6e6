// jsdom lacks these; react-router 7 and Fluent need them.
const { TextEncoder, TextDecoder } = require('node:util');
Object.assign(globalThis, { TextEncoder, TextDecoder });
if (typeof performance !== 'undefined' && !performance.mark) performance.mark = () => undefined;

// findBy*/waitFor wait 5 s, not Testing Library's 1 s: npm test runs these beside the e2e suite and the
// API's Jest at load 10 on two cores, where a query answered through React Query took over 1 s once
// (ci3 of the twentieth session: DestinationField's "Kinh doanh" option). A test still fails if what
// it waits for never comes. The @testing-library/dom of the package's own @testing-library/react (pnpm):
// React's binding itself is not loaded here, or its cleanup after each test would not be registered.
let dom = null;
try {
  const rtl = require.resolve('@testing-library/react', { paths: [process.cwd()] });
  dom = require(require.resolve('@testing-library/dom', { paths: [require('node:path').dirname(rtl)] }));
} catch { /* a package without Testing Library */ }
dom?.configure({ asyncUtilTimeout: 5000 });
