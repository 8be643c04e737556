// The Node tests' fake-org (browser/, clients/): a separate process on an
// ephemeral port with --check-contracts, as a CI job runs it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import readline from 'node:readline';

// Resolves to {proc, url, stderr(), stop()} once fake-org prints its
// "listening on URL" line; rejects when it exits or says nothing in 15 s.
// stop() sends SIGTERM and resolves to the exit code: 0, or 3 when a body it
// sent broke the contract.
export function startFakeOrg(bin, extraArgs = []) {
  return new Promise((resolve, reject) => {
    if (!existsSync(bin)) return reject(new Error(`no fake-org binary at ${bin}`));
    const proc = spawn(bin, ['--port', '0', '--check-contracts', ...extraArgs],
                       { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d) => { stderr = (stderr + d).slice(-8000); });
    const timer = setTimeout(() => {
      proc.kill('SIGTERM');
      reject(new Error(`fake-org printed no 'listening on' line in 15 s:\n${stderr}`));
    }, 15000);
    const early = (code) => {
      clearTimeout(timer);
      reject(new Error(`fake-org exited with ${code}:\n${stderr}`));
    };
    proc.once('exit', early);
    readline.createInterface({ input: proc.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const m = /^listening on (\S+)/.exec(line);
      if (!m) return reject(new Error(`unexpected first line from fake-org: ${line}`));
      const stop = () => new Promise((done) => {
        proc.removeListener('exit', early);
        if (proc.exitCode !== null) return done(proc.exitCode);
        proc.once('exit', (code) => done(code));
        proc.kill('SIGTERM');
      });
      resolve({ proc, url: m[1], stderr: () => stderr, stop });
    });
  });
}
