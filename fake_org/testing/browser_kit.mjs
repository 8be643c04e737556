// What the browser tests share: their command line, checks, a token from the
// org, and headless Chromium from Debian's packages (driven by playwright-core)
// with the loud skip (exit 77, CTest's SKIP_RETURN_CODE) when it cannot start.
import { existsSync } from 'node:fs';

export const SKIP = 77;
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// The value after `name` on the command line, else `fallback`.
export function cliArg(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

// Never a silent pass: the reason is printed where a CI log reader sees it.
export function loudSkip(what, reason) {
  const bar = '!'.repeat(78);
  console.error(`\n${bar}\n!! SKIPPED: the ${what} browser test did not run.\n!! ${reason}\n` +
                `!! Install Chromium with ci/bootstrap (Debian package 'chromium').\n${bar}\n`);
  process.exit(SKIP);
}

export class CheckFailed extends Error {}
export function check(cond, what) {
  if (!cond) throw new CheckFailed(what);
}

// A client-credentials token from the org at `baseUrl` (the fixture's local app).
export async function clientToken(baseUrl) {
  const r = await fetch(`${baseUrl}/services/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'local-client',
                                client_secret: 'local-secret' }),
  });
  check(r.status === 200, `token: HTTP ${r.status}`);
  return (await r.json()).access_token;
}

export async function launchChromium(what) {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    // A setup error, not a missing browser: fail so it gets fixed.
    console.error(`playwright-core is not installed (run ci/bootstrap, which runs npm ci): ${e}`);
    process.exit(1);
  }
  if (!existsSync(chromiumPath)) loudSkip(what, `No Chromium at ${chromiumPath}.`);
  const flags = ['--disable-dev-shm-usage', '--disable-gpu'];
  // Chromium refuses its sandbox as root (containers, CI).
  if (process.getuid && process.getuid() === 0) flags.push('--no-sandbox');
  try {
    return await chromium.launch({ executablePath: chromiumPath, headless: true, args: flags,
                                   timeout: 30000 });
  } catch (e) {
    loudSkip(what, `Chromium at ${chromiumPath} cannot start: ${String(e.message || e).split('\n')[0]}`);
  }
}
