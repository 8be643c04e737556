// The Node client tests' steps (clients/): each a name and an async body,
// reported "ok"/"FAIL" as it ends, and the counts for the last line.
export class Steps {
  // keep(name): whether to run a step (a test's --only filter).
  constructor(keep = () => true) {
    this.keep = keep;
    this.passed = 0;
    this.failed = 0;
  }

  async step(name, fn) {
    if (!this.keep(name)) return;
    const started = Date.now();
    try {
      await fn();
      this.passed += 1;
      console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      this.failed += 1;
      console.log(`FAIL ${name}\n     ${(e && e.stack) || e}`);
    }
  }

  // "N passed, M failed"; the process's exit code.
  finish() {
    console.log(`${this.passed} passed, ${this.failed} failed`);
    return this.failed ? 1 : 0;
  }
}

export function check(cond, what) {
  if (!cond) throw new Error(what);
}

export function equal(actual, expected, what) {
  check(actual === expected,
        `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

// The value after `name` on the test's command line, or `fallback`.
export function arg(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}
