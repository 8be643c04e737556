// Where the platform's CLI pinned in package.json (fakeCrmOrg.platformCli)
// lives once ci/install-platform-cli has put it there: one folder per
// version under the user's cache, shared by every clone of the repository.
// Run as a script, prints that folder (--dir) or the pinned spec (--spec).
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function platformCliSpec() {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return pkg.fakeCrmOrg.platformCli;  // e.g. @salesforce/cli@2.86.1
}

export function platformCliDir() {
  const base = process.env.FAKE_ORG_TOOLS_DIR ||
               path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
                         'fake-crm-org');
  return path.join(base, platformCliSpec().replace(/[@/]/g, '_').replace(/^_/, ''));
}

// The CLI's entry point, or null when it is not installed (or half installed:
// the installer writes .installed last).
export function platformCliBin() {
  const dir = platformCliDir();
  return existsSync(path.join(dir, '.installed')) ? path.join(dir, 'bin', 'run.js') : null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(process.argv[2] === '--spec' ? platformCliSpec() : platformCliDir());
}
