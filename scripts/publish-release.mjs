// The entry point of a remote's own image (shared/build/remote.Dockerfile; issue 36, ADR 0053).
// RELEASE_SRC     the image's release (default /release: <package>/<version>/)
// RELEASES_DIR    the releases volume the web server serves (default /releases)
// HOST_RELEASE    the running host's release.json (default http://web/release.json)
// PROMOTE=0       only copy the release into the volume (promote it later: npm run promote -- … --dir)
// HOST_WAIT_S     how long to wait for the host to answer (default 120)
import { publishRelease } from './lib/publish.mjs';
import { RegistryError } from './lib/registry.mjs';

const env = process.env;
const url = env.HOST_RELEASE || 'http://web/release.json';
try {
  await publishRelease({
    src: env.RELEASE_SRC || '/release',
    dir: env.RELEASES_DIR || '/releases',
    promoteIt: env.PROMOTE !== '0',
    waitMs: Number(env.HOST_WAIT_S || 120) * 1000,
    getHost: async () => {
      const res = await fetch(url, { cache: 'no-store' });
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      return res.json();
    },
    log: (line) => console.log(`publish: ${line}`),
  });
} catch (e) {
  console.error(`publish: ${e instanceof RegistryError ? `[${e.code}] ${e.message}` : e instanceof Error ? e.stack : e}`);
  process.exit(1);
}
