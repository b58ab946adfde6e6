import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { runtimeConfig } from './stack.mjs';

const { contentSecurityPolicy } = createRequire(import.meta.url)('../../shared/build/security-headers.js');

test("config.json names the registry only when the stack serves a releases folder (startStack's releasesDir)", () => {
  const plain = runtimeConfig({ apiUrl: 'http://127.0.0.1:4000', webPort: 3000 });
  assert.equal('registry' in plain, false);
  const withReleases = runtimeConfig({ apiUrl: 'http://127.0.0.1:4000', webPort: 3000, registry: '/registry.json' });
  assert.equal(withReleases.registry, '/registry.json');
  assert.deepEqual(withReleases.remotes, plain.remotes, "config.json's remotes stay: the fallback for a remote the registry does not list");
  // Releases come from the host's own origin: the policy needs no new source for them.
  assert.equal(contentSecurityPolicy(withReleases), contentSecurityPolicy(plain));
});
