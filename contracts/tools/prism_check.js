#!/usr/bin/env node
// Proves that Prism (pinned in package.json) can mock the API from
// contracts/openapi.yaml, as contracts/README.md promises: it starts
// `prism mock` on a free loopback port and checks that it answers with the
// document's examples, enforces the bearer scheme, validates request bodies
// against the schemas and serves the OAuth token endpoint.
//
//   node contracts/tools/prism_check.js [--spec contracts/openapi.yaml]
//
// Exit 0 when every check holds, 1 when one fails (each is printed), 2 when
// Prism cannot start.
'use strict';

const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');
const yaml = require('js-yaml');

const root = path.resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
const at = args.indexOf('--spec');
const specFile = path.resolve(at >= 0 && args[at + 1] ? args[at + 1] : path.join(root, 'contracts', 'openapi.yaml'));
const doc = yaml.load(fs.readFileSync(specFile, 'utf8'));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Resolves once Prism prints that it listens; rejects if it exits or takes
// longer than `ms` (it needs a few seconds to load the document).
function startPrism(port, ms) {
  const bin = require.resolve('@stoplight/prism-cli/dist/index.js', { paths: [root] });
  const child = spawn(process.execPath, [bin, 'mock', '-h', '127.0.0.1', '-p', String(port), specFile],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not listen within ${ms} ms:\n${log}`)), ms);
    const watch = (chunk) => {
      log += chunk;
      if (log.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code} before listening:\n${log}`));
    });
  });
  return { child, ready };
}

function example(p, method, status) {
  const content = doc.paths[p][method].responses[status].content['application/json'];
  if (content.example !== undefined) return content.example;
  return Object.values(content.examples)[0].value;
}

async function main() {
  const port = await freePort();
  const { child, ready } = startPrism(port, 60000);
  try {
    await ready;
  } catch (e) {
    console.error(`prism: ${e.message}`);
    child.kill();
    process.exit(2);
  }
  const base = `http://127.0.0.1:${port}`;
  const bearer = { Authorization: 'Bearer any-token' };
  let failed = 0;
  const check = (name, ok, detail) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : `: ${detail}`}`);
    if (!ok) failed++;
  };
  const call = async (p, init = {}) => {
    const r = await fetch(base + p, init);
    const text = await r.text();
    let body = null;
    try { body = JSON.parse(text); } catch (_) { /* not JSON: compared as text below */ }
    return { status: r.status, body, text };
  };

  try {
    for (const p of ['/PaymentMethods', '/SourceConnector', '/PackageActions']) {
      const r = await call(p, { headers: bearer });
      const want = example(p, 'get', '200');
      check(`GET ${p} answers 200 with the document's example`,
        r.status === 200 && JSON.stringify(r.body) === JSON.stringify(want),
        `${r.status} ${r.text.slice(0, 300)}`);
    }
    let r = await call('/PaymentMethods');
    check('GET /PaymentMethods without a bearer token is 401', r.status === 401, `${r.status} ${r.text}`);

    r = await call('/PaymentIntent', {
      method: 'POST', headers: { ...bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ OneTime: { Amount: 'ten' } }),
    });
    check('POST /PaymentIntent with a body the schema rejects is 422 with an Errors body',
      r.status === 422 && Array.isArray(r.body && r.body.Errors), `${r.status} ${r.text.slice(0, 300)}`);

    r = await call('/Installment/a0B5J000009ZzZzUAK', { headers: { ...bearer, Prefer: 'code=404' } });
    check('GET /Installment/{ID} with Prefer: code=404 gives the documented error example',
      r.status === 404 && JSON.stringify(r.body) === JSON.stringify(example('/Installment/{ID}', 'get', '404')),
      `${r.status} ${r.text.slice(0, 300)}`);

    r = await call('/services/oauth2/token', {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=a&client_secret=b',
    });
    check('POST /services/oauth2/token answers a token with token_type Bearer',
      r.status === 200 && typeof (r.body && r.body.access_token) === 'string' && r.body.token_type === 'Bearer',
      `${r.status} ${r.text.slice(0, 300)}`);
  } catch (e) {
    check('requests to Prism', false, e.message);
  } finally {
    child.kill();
  }
  console.log(failed ? `prism: ${failed} check(s) failed` : 'prism: the document mocks as documented');
  process.exit(failed ? 1 : 0);
}

main();
