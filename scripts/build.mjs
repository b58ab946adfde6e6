// npm run build: production builds of the host and the five remotes.
import { ensureBuilt, ensureInstalled } from './lib/build.mjs';

ensureInstalled();
ensureBuilt({ force: process.argv.includes('--force') });
