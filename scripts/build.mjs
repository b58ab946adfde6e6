// npm run build: production builds of the host and the five remotes (`-- --test`: the e2e variant, npm test's).
import { ensureBuilt, ensureInstalled } from './lib/build.mjs';

ensureInstalled();
ensureBuilt({ force: process.argv.includes('--force'), test: process.argv.includes('--test') });
