// The platform's own command-line client (`sf`, pinned in package.json and
// installed by ci/install-platform-cli) against a fake-org process, as a CI
// pipeline of this platform runs it: a throwaway HOME, a JWT login at the
// fake's login path, then the data, bulk, tree, schema, limits and REST
// commands teams script, a token refresh after the org clock passes the
// token's life, and not one connection or lookup beyond this machine (the
// network guard, preloaded into every sf process, fails the run if there is).
// Prints "N passed, M failed"; exits 1 on any failure, 77 (skipped) when the
// CLI is not installed.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startFakeOrg } from '../testing/fake_org_process.mjs';
import { Steps, arg, check, equal } from '../testing/steps.mjs';
import { platformCliBin, platformCliSpec } from './platform_cli.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const fakeOrgBin = arg('--fake-org', process.env.FAKE_ORG_BIN || 'build/bin/fake-org');
const only = arg('--only', '');  // a part of step names, to run a few while working on them
const USER = 'ada@local-fake-org.example';
const N_BULK = 2100;  // more than one page of a REST query (2,000)

// The login step always runs: every other step needs the org it logs in to.
const steps = new Steps((name) => !only || name.includes(only) || name.startsWith('org login'));
const step = (name, fn) => steps.step(name, fn);

const work = mkdtempSync(path.join(os.tmpdir(), 'sf-cli-test-'));
const guardLog = path.join(work, 'network-guard.log');
const sfEnv = {
  ...process.env,
  HOME: path.join(work, 'home'),  // ~/.sfdx and ~/.sf: auth files, aliases, logs
  NO_COLOR: '1',
  SF_DISABLE_TELEMETRY: 'true',       // else an uploader process calls a telemetry service
  SF_SKIP_NEW_VERSION_CHECK: 'true',  // else a process asks the npm registry for dist-tags
  SF_USE_GENERIC_UNIX_KEYCHAIN: 'true',  // never shell out to secret-tool
  SF_AUTOUPDATE_DISABLE: 'true',
  SF_DISABLE_AUTOUPDATE: 'true',
  NODE_OPTIONS: `--require ${path.join(here, 'network_guard.cjs')}`,
  NETWORK_GUARD_LOG: guardLog,
};

// Runs `sf ...args`; with --json in args, the parsed envelope as .json.
function sf(cliBin, cliArgs) {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliBin, ...cliArgs],
             { cwd: work, env: sfEnv, maxBuffer: 64 << 20, timeout: 120000 },
             (error, stdout, stderr) => {
               const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
               let json = null;
               if (cliArgs.includes('--json')) {
                 try {
                   json = JSON.parse(stdout);
                 } catch {
                   // left null: the step's check says what came instead
                 }
               }
               resolve({ code, stdout, stderr, json, what: `sf ${cliArgs.join(' ')}` });
             });
  });
}
// The result of a command that must succeed.
function ok(r) {
  check(r.code === 0, `${r.what} exited ${r.code}:\n${r.stdout.slice(0, 2000)}\n${r.stderr.slice(0, 2000)}`);
  return r.json ? r.json.result : r.stdout;
}

async function admin(org, method, pathAndQuery, body) {
  const r = await fetch(`${org}/__admin${pathAndQuery}`, {
    method, headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  check(r.ok, `${method} /__admin${pathAndQuery}: ${r.status} ${text}`);
  return JSON.parse(text);
}

function writeCsv(name, lines) {
  const file = path.join(work, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function main() {
  const cli = platformCliBin();
  if (!cli) {
    console.log(`skipped: ${platformCliSpec()} is not installed; run ci/install-platform-cli ` +
                '(ci/bootstrap does)');
    return 77;
  }
  const org = await startFakeOrg(fakeOrgBin);
  const ORG = org.url;
  const run = (...a) => sf(cli, a);
  const tag = `Cli${Date.now().toString(36)}`;
  let accountId;

  await step('org login jwt at the login path', async () => {
    const r = ok(await run('org', 'login', 'jwt', '--client-id', 'local-client',
                           '--jwt-key-file', path.join(root, 'fixtures/keys/jwt-test-client.key'),
                           '--username', USER, '--instance-url', `${ORG}/login`,
                           '--alias', 'fake', '--set-default', '--json'));
    equal(r.username, USER, 'username');
    equal(r.instanceUrl, ORG, 'instance URL');
    check(/^00D/.test(r.orgId), `org id ${r.orgId}`);
  });

  await step('org login jwt of a second user: the sandbox check of the first org is answered', async () => {
    // With another org authorized in HOME, the CLI asks this one through the
    // Tooling API whether that org is its sandbox (decision 180); it swallows
    // a refusal, so fake-org's request log is what shows the answer.
    const r = await run('org', 'login', 'jwt', '--client-id', 'local-client',
                        '--jwt-key-file', path.join(root, 'fixtures/keys/jwt-test-client.key'),
                        '--username', 'integration@local-fake-org.example',
                        '--instance-url', `${ORG}/login`, '--alias', 'fake-integration', '--json');
    equal(ok(r).username, 'integration@local-fake-org.example', 'username');
    check(/GET \/services\/data\/v[0-9.]+\/tooling\/query 200 /.test(org.stderr()),
          `a tooling query answered 200 in fake-org's log:\n${org.stderr().slice(-1500)}`);
  });

  await step('org display: connected, the newest API version', async () => {
    const r = ok(await run('org', 'display', '--json'));
    equal(r.connectedStatus, 'Connected', 'connected status');
    equal(r.instanceUrl, ORG, 'instance URL');
    equal(r.apiVersion, '68.0', 'API version');
    equal(r.alias, 'fake', 'alias');
  });

  await step('org list: the org, connected', async () => {
    const r = ok(await run('org', 'list', '--json'));
    const orgs = [...(r.nonScratchOrgs || []), ...(r.other || [])];
    const mine = orgs.find((o) => o.alias === 'fake');
    check(mine, `alias fake in ${JSON.stringify(orgs).slice(0, 500)}`);
    equal(mine.connectedStatus, 'Connected', 'connected status');
  });

  await step(`data import bulk: ${N_BULK} contacts from a CSV`, async () => {
    const rows = ['LastName,FirstName,Email,External_Donor_Id__c'];
    for (let i = 0; i < N_BULK; i += 1) {
      rows.push(`${tag}-${String(i).padStart(4, '0')},"Bulk, ${i}",b${i}@example.org,${tag}-${i}`);
    }
    const r = ok(await run('data', 'import', 'bulk', '--sobject', 'Contact', '--file',
                           writeCsv('contacts.csv', rows), '--wait', '5', '--json'));
    equal(r.processedRecords, N_BULK, 'processed');
    equal(r.successfulRecords, N_BULK, 'successful');
    equal(r.failedRecords, 0, 'failed');
  });

  await step('data import bulk: bad rows fail alone and the CLI says how many', async () => {
    const r = await run('data', 'import', 'bulk', '--sobject', 'Contact', '--file',
                        writeCsv('bad.csv', ['LastName,Email', `${tag}-ok,ok@example.org`,
                                             `${tag}-bad,not-an-email`, ',no-last@example.org']),
                        '--wait', '5', '--json');
    equal(r.code, 1, `exit code (${r.stdout.slice(0, 800)})`);
    check(/failed to process 2 records/i.test(r.json && r.json.message),
          `message: ${r.json && r.json.message}`);
  });

  await step('data query (json) pages through more than 2,000 rows', async () => {
    const r = ok(await run('data', 'query', '--query',
                           `SELECT Id, LastName FROM Contact WHERE LastName LIKE '${tag}-%'`,
                           '--json'));
    equal(r.totalSize, N_BULK + 1, 'totalSize');
    equal(r.records.length, N_BULK + 1, 'records fetched');
  });

  await step('data query (human): a table and the count', async () => {
    const out = ok(await run('data', 'query', '--query',
                             `SELECT LastName, FirstName FROM Contact WHERE LastName = '${tag}-0007'`));
    check(/LAST NAME|LASTNAME/i.test(out) && out.includes(`${tag}-0007`) &&
          out.includes('Bulk, 7'), `table:\n${out}`);
    check(/Total number of records retrieved: 1\./.test(out), `count line:\n${out}`);
  });

  await step('data query (csv) with a relationship path', async () => {
    const acct = ok(await run('data', 'create', 'record', '--sobject', 'Account', '--values',
                              `Name='${tag} Family' BillingCity=Paris`, '--json'));
    accountId = acct.id;
    ok(await run('data', 'create', 'record', '--sobject', 'Contact', '--values',
                 `LastName=${tag}-child AccountId=${accountId}`, '--json'));
    const out = ok(await run('data', 'query', '--result-format', 'csv', '--query',
                             `SELECT LastName, Account.Name FROM Contact WHERE LastName = '${tag}-child'`));
    equal(out.trim(), `LastName,Account.Name\n${tag}-child,${tag} Family`, 'csv');
  });

  await step('data query: COUNT()', async () => {
    const r = ok(await run('data', 'query', '--query',
                           `SELECT COUNT() FROM Contact WHERE LastName LIKE '${tag}-0%'`, '--json'));
    equal(r.totalSize, 1000, 'totalSize');
  });

  await step('data query --bulk', async () => {
    const r = ok(await run('data', 'query', '--bulk', '--wait', '5', '--query',
                           `SELECT Id, LastName FROM Contact WHERE LastName LIKE '${tag}-1%'`,
                           '--json'));
    equal(r.totalSize, 1000, 'totalSize');
    check(r.records.every((x) => x.LastName.startsWith(`${tag}-1`)), 'the rows asked for');
  });

  await step('data create, get, update and delete record', async () => {
    const made = ok(await run('data', 'create', 'record', '--sobject', 'Contact', '--values',
                              `LastName=${tag}-rec FirstName=Grace`, '--json'));
    check(/^003/.test(made.id), `id ${made.id}`);
    const got = ok(await run('data', 'get', 'record', '--sobject', 'Contact', '--record-id',
                             made.id, '--json'));
    equal(got.FirstName, 'Grace', 'FirstName');
    ok(await run('data', 'update', 'record', '--sobject', 'Contact', '--where',
                 `LastName='${tag}-rec'`, '--values', 'FirstName=Ada', '--json'));
    const again = ok(await run('data', 'get', 'record', '--sobject', 'Contact', '--record-id',
                               made.id, '--json'));
    equal(again.FirstName, 'Ada', 'FirstName after update');
    ok(await run('data', 'delete', 'record', '--sobject', 'Contact', '--record-id', made.id,
                 '--json'));
    const gone = await run('data', 'get', 'record', '--sobject', 'Contact', '--record-id',
                           made.id, '--json');
    check(gone.code !== 0 && /ENTITY_IS_DELETED/.test(gone.stdout), `after delete: ${gone.stdout}`);
  });

  await step('data upsert bulk by external id: update one, insert one', async () => {
    const file = writeCsv('upsert.csv', ['External_Donor_Id__c,LastName', `${tag}-5,${tag}-renamed`,
                                         `${tag}-new,${tag}-new`]);
    const r = ok(await run('data', 'upsert', 'bulk', '--sobject', 'Contact', '--file', file,
                           '--external-id', 'External_Donor_Id__c', '--wait', '5', '--json'));
    equal(r.jobInfo.numberRecordsProcessed, 2, 'processed');
    equal(r.jobInfo.numberRecordsFailed, 0, 'failed');
    equal(r.records.successfulResults.map((x) => `${x.LastName} ${x.sf__Created}`).join(', '),
          `${tag}-renamed false, ${tag}-new true`, 'successful results');
    const q = ok(await run('data', 'query', '--query',
                           `SELECT LastName FROM Contact WHERE External_Donor_Id__c IN ('${tag}-5', '${tag}-new') ORDER BY LastName`,
                           '--json'));
    equal(q.records.map((x) => x.LastName).join(','), `${tag}-new,${tag}-renamed`, 'rows');
  });

  await step('data export bulk: CSV of more than 2,000 rows with a relationship column', async () => {
    const file = path.join(work, 'export.csv');
    ok(await run('data', 'export', 'bulk', '--query',
                 `SELECT Id, LastName, Account.Name FROM Contact WHERE LastName LIKE '${tag}-%'`,
                 '--output-file', file, '--result-format', 'csv', '--wait', '5', '--json'));
    // Bulk API 2.0 quotes every value of a query job's CSV; the CLI writes it as it came.
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    equal(lines[0], '"Id","LastName","Account.Name"', 'header');
    equal(lines.length - 1, N_BULK + 3, 'rows');  // the import, the good bad-file row, child, new
  });

  await step('data export tree --plan, then data import tree of that plan', async () => {
    const dir = path.join(work, 'tree');
    ok(await run('data', 'export', 'tree', '--plan', '--output-dir', dir, '--query',
                 `SELECT Id, Name, BillingCity, (SELECT LastName FROM Contacts) FROM Account WHERE Id = '${accountId}'`,
                 '--json'));
    const plan = path.join(dir, 'Account-Contact-plan.json');
    check(existsSync(plan), `the plan at ${plan}`);
    const contacts = JSON.parse(readFileSync(path.join(dir, 'Contact.json'), 'utf8'));
    equal(contacts.records.length, 1, 'exported children');
    const r = ok(await run('data', 'import', 'tree', '--plan', plan, '--json'));
    equal(r.length, 2, `imported records ${JSON.stringify(r)}`);
    const q = ok(await run('data', 'query', '--query',
                           `SELECT Account.Name FROM Contact WHERE LastName = '${tag}-child'`,
                           '--json'));
    equal(q.totalSize, 2, 'the child twice, each under its own account');
    check(q.records.every((x) => x.Account && x.Account.Name === `${tag} Family`), 'parents');
  });

  await step('sobject list and describe', async () => {
    const list = ok(await run('sobject', 'list', '--sobject', 'all', '--json'));
    for (const name of ['Account', 'Contact', 'Organization', 'User']) {
      check(list.includes(name), `${name} in ${list.join(', ')}`);
    }
    const d = ok(await run('sobject', 'describe', '--sobject', 'Contact', '--json'));
    equal(d.name, 'Contact', 'name');
    check(d.fields.some((f) => f.name === 'External_Donor_Id__c' && f.externalId),
          'External_Donor_Id__c is an external id');
  });

  await step('org list limits', async () => {
    const r = ok(await run('org', 'list', 'limits', '--json'));
    const daily = r.find((l) => l.name === 'DailyApiRequests');
    check(daily && daily.max > 0 && daily.remaining <= daily.max, `DailyApiRequests ${JSON.stringify(daily)}`);
  });

  await step('api request rest: the payment API, GET and POST /PaymentIntent', async () => {
    const methods = JSON.parse(ok(await run('api', 'request', 'rest',
                                            '/services/apexrest/cpm/v2/PaymentMethods')));
    check(methods && typeof methods === 'object', `PaymentMethods: ${JSON.stringify(methods)}`);
    const body = path.join(root, 'contracts/examples/payment_intent_request/valid/new_one_time.json');
    const out = ok(await run('api', 'request', 'rest', '/services/apexrest/cpm/v2/PaymentIntent',
                             '--method', 'POST', '--body', `@${body}`));
    const intent = JSON.parse(out);
    check(intent.Id && intent.Id.length > 0, `an intent id in ${out.slice(0, 400)}`);
  });

  await step('a token refresh after the org clock passes the token\'s life', async () => {
    const before = ok(await run('org', 'display', '--json')).accessToken;
    await admin(ORG, 'POST', '/clock', { advance: '3h' });
    const r = ok(await run('data', 'query', '--query',
                           `SELECT COUNT() FROM Contact WHERE LastName LIKE '${tag}-%'`, '--json'));
    equal(r.totalSize, N_BULK + 4, 'totalSize after the refresh');
    const d = ok(await run('org', 'display', '--json'));
    equal(d.connectedStatus, 'Connected', 'connected after the refresh');
    check(d.accessToken && d.accessToken !== before, 'a new access token');
  });

  await step('nothing left the machine', async () => {
    const log = existsSync(guardLog) ? readFileSync(guardLog, 'utf8') : '';
    equal(log, '', 'the network guard\'s log');
  });

  const code = await org.stop();
  await step('fake-org kept its own contracts (--check-contracts)', async () => {
    equal(code, 0, `fake-org exit code (3: a contract violation)\n${org.stderr()}`);
  });
  rmSync(work, { recursive: true, force: true });
  return steps.finish();
}

main().then((code) => process.exit(code), (e) => {
  console.error(e);
  process.exit(1);
});
