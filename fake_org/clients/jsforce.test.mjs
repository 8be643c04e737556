// jsforce 3, the JavaScript client most integrations use, pointed at fake-org
// as it is pointed at a real org: nothing in here knows it talks
// to a fake, except the two /__admin calls that move the org's clock.
//
//   node fake_org/clients/jsforce.test.mjs --fake-org build/bin/fake-org
//
// Covers the web server flow with loginUrl at the login path and PKCE as
// jsforce sends it (no code_challenge_method), identity(), sObject create,
// retrieve, update and destroy, composite creates, query with queryMore and
// autoFetch over more than 2,000 records, a parent-child query (children
// paged behind their own locator) and an aggregate query, upsert by external
// id, retrieve([ids]), composite with references and composite/tree, apex.get/post of
// the payment API, Bulk API 2.0 (bulk2: an ingest job and a query job),
// a token refresh on a 401 after the access token expired, the JWT bearer
// flow, and revoke. Prints "N passed, M failed"; exits 1 on any failure.
import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import jsforce from 'jsforce';

import { startFakeOrg } from '../testing/fake_org_process.mjs';
import { Steps, arg, check, equal } from '../testing/steps.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const fakeOrgBin = arg('--fake-org', process.env.FAKE_ORG_BIN || 'build/bin/fake-org');
const VERSION = '59.0';
const CLIENT = { clientId: 'local-client', clientSecret: 'local-secret' };
const REDIRECT = 'http://localhost:8080/callback';

const steps = new Steps();
const step = (name, fn) => steps.step(name, fn);

// The payer's part of the web server flow: open the authorize URL, press
// Allow on the approval page, and read the code from the redirect.
async function approve(authorizeUrl) {
  const page = await fetch(authorizeUrl);
  equal(page.status, 200, 'the approval page');
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(m[0]);
    const value = /value="([^"]*)"/.exec(m[0]);
    if (name) form.append(name[1], unescapeHtml(value ? value[1] : ''));
  }
  form.append('decision', 'allow');  // the page's Allow button
  const action = /<form[^>]*action="([^"]*)"/.exec(html);
  check(action, 'the approval page has a form');
  const to = new URL(unescapeHtml(action[1]), authorizeUrl);
  const res = await fetch(to, { method: 'POST', body: form, redirect: 'manual' });
  equal(res.status, 302, `the approval answer (${res.status === 302 ? '' : await res.text()})`);
  const location = new URL(res.headers.get('location'));
  check(location.href.startsWith(REDIRECT), `redirected to the callback, not ${location.href}`);
  const code = location.searchParams.get('code');
  check(code, `a code in ${location.href}`);
  equal(location.searchParams.get('state'), 'jsforce-state', 'the state comes back');
  return code;
}
function unescapeHtml(s) {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

async function advanceClock(org, by) {
  const r = await fetch(`${org}/__admin/clock`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance: by }),
  });
  equal(r.status, 200, `POST /__admin/clock advance ${by}`);
  return (await r.json()).now;
}

function jwtAssertion(claims) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${b64({ alg: 'RS256' })}.${b64(claims)}`;
  const key = readFileSync(path.join(root, 'fixtures/keys/jwt-test-client.key'));
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

async function main() {
  const org = await startFakeOrg(fakeOrgBin);
  const ORG = org.url;
  const loginUrl = `${ORG}/login`;
  let conn;
  let contactId;

  await step('web server flow at the login path with PKCE (no code_challenge_method)', async () => {
    const oauth2 = new jsforce.OAuth2({ loginUrl, ...CLIENT, redirectUri: REDIRECT, useVerifier: true });
    const url = oauth2.getAuthorizationUrl({ state: 'jsforce-state' });
    check(url.startsWith(`${loginUrl}/services/oauth2/authorize?`), `authorize URL ${url}`);
    check(!url.includes('code_challenge_method'), 'jsforce sends no code_challenge_method');
    const code = await approve(url);
    conn = new jsforce.Connection({ oauth2, version: VERSION });
    const userInfo = await conn.authorize(code);
    equal(conn.instanceUrl, ORG, 'instance_url');
    check(conn.refreshToken, 'a refresh token');
    check(/^00D/.test(userInfo.organizationId), `org id ${userInfo.organizationId}`);
    check(/^005/.test(userInfo.id), `user id ${userInfo.id}`);
  });

  await step('identity() follows the token\'s id URL', async () => {
    const id = await conn.identity();
    equal(id.username, 'integration@local-fake-org.example', 'username');
    check(/^00D/.test(id.organization_id), 'organization_id');
    check(String(id.urls.rest).includes('/services/data/v{version}/'), `urls.rest ${id.urls.rest}`);
  });

  await step('sobject create, retrieve, update, destroy', async () => {
    const created = await conn.sobject('Contact').create({ LastName: 'Jsforce', Email: 'jsforce@example.org' });
    check(created.success && /^003/.test(created.id), `create: ${JSON.stringify(created)}`);
    contactId = created.id;
    const got = await conn.sobject('Contact').retrieve(contactId);
    equal(got.LastName, 'Jsforce', 'retrieved LastName');
    equal(got.attributes.type, 'Contact', 'attributes.type');
    const updated = await conn.sobject('Contact').update({ Id: contactId, FirstName: 'Node' });
    check(updated.success, `update: ${JSON.stringify(updated)}`);
    equal((await conn.sobject('Contact').retrieve(contactId)).FirstName, 'Node', 'updated FirstName');
    const refused = await conn.sobject('Contact').create({ LastName: 'X', No_Such_Field__c: 1 })
      .then(() => null, (e) => e);
    check(refused && refused.errorCode === 'INVALID_FIELD', `an unknown field: ${refused && refused.errorCode}`);
  });

  await step('describe and describeGlobal', async () => {
    const global = await conn.describeGlobal();
    check(global.sobjects.some((s) => s.name === 'cpm__Installment__c'), 'the package objects');
    const contact = await conn.sobject('Contact').describe();
    check(contact.fields.some((f) => f.name === 'Email' && f.type === 'email'), 'Contact.Email is an email');
  });

  await step('a contact created through the data API is found by the payment API\'s deduplication', async () => {
    const res = await conn.apex.post('/cpm/v2/PaymentIntent', {
      SuccessURL: 'https://shop.example/ok', FailureURL: 'https://shop.example/ko',
      Payer: { AllowDeduplication: true,
               Contact: { CrmFields: { LastName: 'Jsforce', Email: 'jsforce@example.org' } } },
      OneTime: { Amount: 15 }, PaymentMethod: { Name: 'CreditCard' },
    });
    check(/^pi_/.test(res.Id), `PaymentIntent ${JSON.stringify(res)}`);
    const read = await conn.apex.get(`/cpm/v2/PaymentIntent/${res.Id}`);
    equal(read.Payer.Contact.Id.slice(0, 15), contactId.slice(0, 15), 'the payer is the contact made before');
    const methods = await conn.apex.get('/cpm/v2/PaymentMethods');
    check(methods.PaymentMethods.some((m) => m.Name === 'CreditCard'), 'PaymentMethods');
    const q = await conn.query(`SELECT Id, cpm__Amount__c FROM cpm__Installment__c WHERE Id = '${read.OneTime.Id}'`);
    equal(q.totalSize, 1, 'the payment intent\'s installment, by SOQL');
  });

  await step('bulk2: an ingest job with a bad row, then a bulk query of what it wrote', async () => {
    conn.bulk2.pollInterval = 100;
    conn.bulk2.pollTimeout = 30000;
    const res = await conn.bulk2.loadAndWaitForResults({
      object: 'Contact', operation: 'insert',
      input: 'LastName,FirstName,Email\nBulkTwo,"Ada, C",bulktwo@example.org\n,NoLast,nolast@example.org\n',
    });
    equal(res.successfulResults.length, 1, 'successfulResults');
    equal(res.successfulResults[0].sf__Created, 'true', 'sf__Created');
    equal(res.successfulResults[0].FirstName, 'Ada, C', 'a quoted field');
    equal(res.failedResults.length, 1, 'failedResults');
    check(String(res.failedResults[0].sf__Error).startsWith('REQUIRED_FIELD_MISSING:'),
      `sf__Error ${res.failedResults[0].sf__Error}`);
    const stream = await conn.bulk2.query("SELECT Id, FirstName FROM Contact WHERE LastName = 'BulkTwo'");
    const rows = await new Promise((resolve, reject) => {
      const out = [];
      stream.on('record', (r) => out.push(r));
      stream.on('end', () => resolve(out));
      stream.on('error', reject);
    });
    equal(rows.length, 1, 'bulk query rows');
    equal(rows[0].Id, res.successfulResults[0].sf__Id, 'the id the ingest job gave');
  });

  await step('query, queryMore and autoFetch over 2,100 records', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ LastName: 'Bulk', FirstName: `N${i}` }));
    for (let i = 0; i < 10; i += 1) {
      const results = await conn.sobject('Contact').create(rows, { allOrNone: true });
      check(results.every((r) => r.success), `composite create ${i}`);
    }
    const extra = await conn.sobject('Contact').create(rows.slice(0, 100));
    check(extra.every((r) => r.success), 'composite create of 100');
    const soql = "SELECT Id, FirstName FROM Contact WHERE LastName = 'Bulk'";
    const first = await conn.query(soql);
    equal(first.totalSize, 2100, 'totalSize');
    equal(first.done, false, 'done after the first batch');
    equal(first.records.length, 2000, 'the first batch');
    const more = await conn.queryMore(first.nextRecordsUrl);
    equal(more.records.length, 100, 'the second batch');
    equal(more.done, true, 'done after the second batch');
    const all = await conn.query(soql).run({ autoFetch: true, maxFetch: 5000 });
    equal(all.records.length, 2100, 'autoFetch gathers every record');
    const ids = new Set([...first.records, ...more.records].map((r) => r.Id));
    equal(ids.size, 2100, 'no record twice across batches');
  });

  await step('a parent-child query (autoFetch follows the children\'s own nextRecordsUrl) and an aggregate query', async () => {
    const account = await conn.sobject('Account').create({ Name: 'Jsforce Family' });
    check(account.success, `account: ${JSON.stringify(account)}`);
    const kids = Array.from({ length: 200 }, (_, i) => ({ LastName: i % 3 ? 'Kid' : 'Elder', FirstName: `K${String(i).padStart(3, '0')}`, AccountId: account.id }));
    for (const batch of [kids, kids.slice(0, 50).map((k) => ({ ...k, FirstName: `L${k.FirstName}` }))]) {
      const made = await conn.sobject('Contact').create(batch, { allOrNone: true });
      check(made.every((r) => r.success), 'children created');
    }
    const soql = `SELECT Name, (SELECT FirstName FROM Contacts ORDER BY FirstName) FROM Account WHERE Id = '${account.id}'`;
    const one = await conn.query(soql);
    equal(one.records[0].Name, 'Jsforce Family', 'the parent');
    equal(one.records[0].Contacts.totalSize, 250, 'the children counted');
    equal(one.records[0].Contacts.records[0].FirstName, 'K000', 'the children ordered');
    // A batch of 200 counts the children: the rest wait behind the child result's own locator.
    const small = { 'Sforce-Query-Options': 'batchSize=200' };
    const paged = await conn.request({ method: 'GET', url: `/services/data/v${conn.version}/query?q=${encodeURIComponent(soql)}`, headers: small });
    equal(paged.records[0].Contacts.done, false, 'children past the batch wait');
    equal(paged.records[0].Contacts.records.length, 199, 'the parent and 199 children fill the batch');
    const fetched = await conn.query(soql).run({ autoFetch: true, maxFetch: 5000, headers: small });
    equal(fetched.records[0].Contacts.records.length, 250, 'autoFetch gathers every child');
    const built = await conn.sobject('Account').find({ Id: account.id }, 'Name')
      .include('Contacts').select('FirstName').where({ LastName: 'Elder' }).end().execute();
    equal(built[0].Contacts.totalSize, 84, 'the query builder\'s include()');
    const grouped = await conn.query(`SELECT LastName, COUNT(Id) n, MIN(FirstName) FROM Contact WHERE AccountId = '${account.id}' GROUP BY LastName ORDER BY LastName`);
    equal(grouped.totalSize, 2, 'one row per group');
    equal(JSON.stringify(grouped.records[0]), JSON.stringify({ attributes: { type: 'AggregateResult' }, LastName: 'Elder', n: 84, expr0: 'K000' }), 'an AggregateResult row');
  });

  await step('upsert by external id, retrieve([ids]), composite with references and composite/tree', async () => {
    const key = `JS-${Date.now()}`;
    const made = await conn.sobject('Contact').upsert({ LastName: 'Upserted', External_Donor_Id__c: key }, 'External_Donor_Id__c');
    check(made.success && made.created === true, `upsert created: ${JSON.stringify(made)}`);
    const again = await conn.sobject('Contact').upsert({ FirstName: 'Again', External_Donor_Id__c: key }, 'External_Donor_Id__c');
    check(again.success && again.created === false, `upsert updated: ${JSON.stringify(again)}`);
    const both = await conn.sobject('Contact').retrieve([made.id, contactId], { fields: ['FirstName', 'LastName'] });
    equal(both.length, 2, 'retrieve([ids]) answers each id');
    equal(both[0].FirstName, 'Again', 'the upserted contact, updated');
    const v = conn.version;
    const data = `/services/data/v${v}`;
    const composite = await conn.requestPost(`${data}/composite`, {
      allOrNone: true,
      compositeRequest: [
        { method: 'POST', url: `${data}/sobjects/Account`, referenceId: 'acct', body: { Name: 'Jsforce Composite' } },
        { method: 'POST', url: `${data}/sobjects/Contact`, referenceId: 'kid', body: { LastName: 'Composite', AccountId: '@{acct.id}' } },
        { method: 'GET', url: `${data}/query?q=SELECT+LastName+FROM+Contact+WHERE+AccountId='@{acct.id}'`, referenceId: 'kids' },
      ],
    });
    const codes = composite.compositeResponse.map((r) => r.httpStatusCode);
    equal(JSON.stringify(codes), JSON.stringify([201, 201, 200]), 'composite status codes');
    equal(composite.compositeResponse[2].body.records[0].LastName, 'Composite', 'the query saw the new child');
    const halted = await conn.requestPost(`${data}/composite`, {
      allOrNone: true,
      compositeRequest: [
        { method: 'POST', url: `${data}/sobjects/Account`, referenceId: 'acct', body: { Name: `Jsforce Halted ${key}` } },
        { method: 'POST', url: `${data}/sobjects/Contact`, referenceId: 'bad', body: { FirstName: 'No last name' } },
      ],
    });
    equal(halted.compositeResponse[0].body[0].errorCode, 'PROCESSING_HALTED', 'the rest rolled back');
    equal((await conn.query(`SELECT Id FROM Account WHERE Name = 'Jsforce Halted ${key}'`)).totalSize, 0, 'nothing written');
    const tree = await conn.requestPost(`${data}/composite/tree/Account`, {
      records: [{ attributes: { type: 'Account', referenceId: 'a1' }, Name: 'Jsforce Tree',
                  Contacts: { records: [{ attributes: { type: 'Contact', referenceId: 'c1' }, LastName: 'Leaf' }] } }],
    });
    equal(tree.hasErrors, false, `tree: ${JSON.stringify(tree)}`);
    equal(tree.results.map((r) => r.referenceId).join(','), 'a1,c1', 'tree results');
    const refused = await conn.requestPost(`${data}/composite/tree/Account`, {
      records: [{ attributes: { type: 'Account', referenceId: 'b1' }, Name: `Jsforce Refused ${key}`,
                  Contacts: { records: [{ attributes: { type: 'Contact', referenceId: 'b2' } }] } }],
    }).then(() => null, (e) => e);
    check(refused !== null, 'a refused tree is an error');
    equal((await conn.query(`SELECT Id FROM Account WHERE Name = 'Jsforce Refused ${key}'`)).totalSize, 0, 'the refused tree wrote nothing');
  });

  await step('an expired access token is refreshed on the 401 and the call retried', async () => {
    const before = conn.accessToken;
    let refreshed = false;
    conn.on('refresh', () => { refreshed = true; });
    await advanceClock(ORG, '3h');  // the default fixture's tokens live 2 hours
    const q = await conn.query('SELECT COUNT() FROM Contact');
    check(q.totalSize > 2100, `COUNT() ${q.totalSize}`);
    check(refreshed, 'jsforce refreshed its token');
    check(conn.accessToken !== before, 'a new access token');
  });

  await step('destroy, then retrieve says the record is gone', async () => {
    const gone = await conn.sobject('Contact').destroy(contactId);
    check(gone.success, `destroy ${JSON.stringify(gone)}`);
    const err = await conn.sobject('Contact').retrieve(contactId).then(() => null, (e) => e);
    check(err && ['ENTITY_IS_DELETED', 'NOT_FOUND'].includes(err.errorCode), `after destroy: ${err && err.errorCode}`);
  });

  await step('JWT bearer flow as another user', async () => {
    const clock = await (await fetch(`${ORG}/__admin/clock`)).json();
    const now = Math.floor(Date.parse(clock.now) / 1000);
    const assertion = jwtAssertion({ iss: CLIENT.clientId, sub: 'ada@local-fake-org.example',
                                     aud: loginUrl, exp: now + 300 });
    const jwt = new jsforce.Connection({ oauth2: new jsforce.OAuth2({ loginUrl }), version: VERSION });
    const info = await jwt.authorize({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    check(/^005/.test(info.id), `user ${info.id}`);
    equal((await jwt.identity()).username, 'ada@local-fake-org.example', 'the assertion\'s user');
    // Expired on the org clock and in real time both (a CLI signs with real time).
    const past = Math.min(now, Math.floor(Date.now() / 1000)) - 60;
    const expired = jwtAssertion({ iss: CLIENT.clientId, sub: 'ada@local-fake-org.example',
                                   aud: loginUrl, exp: past });
    const err = await jwt.authorize({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: expired })
      .then(() => null, (e) => e);
    check(err && err.name === 'invalid_grant', `an expired assertion: ${err && err.name}`);
  });

  await step('a second org: jsforce logs in at the root login path and works at its instance URL', async () => {
    // An org created at run time with a connected app of its own: the login
    // path finds it by the client id, and its token names its instance URL,
    // to which jsforce appends /services/... as for any org.
    const second = { clientId: 'second-client', clientSecret: 'second-secret' };
    const created = await fetch(`${ORG}/__admin/orgs`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'second',
        fixture: {
          extends: 'default.yaml',
          auth: { connected_apps: [{ name: 'Second', client_id: second.clientId,
                                     client_secret: second.clientSecret,
                                     redirect_uris: [REDIRECT], client_credentials: true }],
                  // User names are unique across the orgs at the login paths.
                  users: [{ username: 'integration@second.example', first_name: 'Integration',
                            last_name: 'User', email: 'integration@second.example' }] },
        },
      }),
    });
    equal(created.status, 201, `POST /__admin/orgs (${created.status === 201 ? '' : await created.text()})`);
    const instance = (await created.json()).instance_url;
    equal(instance, `${ORG}/orgs/second`, 'the new org\'s instance URL');
    const oauth2 = new jsforce.OAuth2({ loginUrl, ...second, redirectUri: REDIRECT, useVerifier: true });
    const code = await approve(oauth2.getAuthorizationUrl({ state: 'jsforce-state' }));
    const other = new jsforce.Connection({ oauth2, version: VERSION });
    await other.authorize(code);
    equal(other.instanceUrl, instance, 'instance_url');
    const { id } = await other.sobject('Contact').create({ LastName: 'Second', Email: 'second@example.org' });
    const found = await other.query(`SELECT Id FROM Contact WHERE Email = 'second@example.org'`);
    equal(found.totalSize, 1, 'the contact in the second org');
    const methods = await other.apex.get('/cpm/v2/PaymentMethods');
    check(methods.PaymentMethods.length > 0, 'the payment API of the second org');
    const elsewhere = await conn.query(`SELECT Id FROM Contact WHERE Email = 'second@example.org'`);
    equal(elsewhere.totalSize, 0, 'the first org does not have it');
    const crossed = await fetch(`${ORG}/services/data/v${VERSION}/sobjects/Contact/${id}`, {
      headers: { authorization: `Bearer ${other.accessToken}` },
    });
    equal(crossed.status, 401, 'the second org\'s token at the first org');
    const gone = await fetch(`${ORG}/__admin/orgs/second`, { method: 'DELETE' });
    equal(gone.status, 200, 'DELETE /__admin/orgs/second');
  });

  await step('an org past its record cap: jsforce sees STORAGE_LIMIT_EXCEEDED, nothing written', async () => {
    // The default fixture's client id is the root org's: the new org is
    // served under its prefix only, and the answer says so.
    const created = await fetch(`${ORG}/__admin/orgs`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'small', fixture: { extends: 'default.yaml', org: { max_records: 15 } } }),
    });
    equal(created.status, 201, `POST /__admin/orgs (${created.status === 201 ? '' : await created.text()})`);
    const org = await created.json();
    equal(org.login_paths, false, 'a colliding client id: served under its prefix');
    const token = await (await fetch(`${org.instance_url}/services/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT.clientId,
                                  client_secret: CLIENT.clientSecret }),
    })).json();
    const small = new jsforce.Connection({ instanceUrl: org.instance_url, accessToken: token.access_token,
                                           version: VERSION });
    const fits = await small.sobject('Contact').create({ LastName: 'Fits' });
    equal(fits.success, true, 'the fifteenth record');
    let refused = null;
    try {
      await small.sobject('Contact').create({ LastName: 'Overflow' });
    } catch (e) {
      refused = e;
    }
    check(refused, 'the sixteenth record is refused');
    equal(refused.errorCode, 'STORAGE_LIMIT_EXCEEDED', 'the error jsforce raises');
    const found = await small.query(`SELECT Id FROM Contact WHERE LastName = 'Overflow'`);
    equal(found.totalSize, 0, 'nothing of the refused create');
    const gone = await fetch(`${ORG}/__admin/orgs/small`, { method: 'DELETE' });
    equal(gone.status, 200, 'DELETE /__admin/orgs/small');
  });

  await step('revoke ends the session', async () => {
    const token = conn.accessToken;
    await conn.logout(true);  // revokes the refresh token and the session with it
    const r = await fetch(`${ORG}/services/data/v${VERSION}/limits`, { headers: { Authorization: `Bearer ${token}` } });
    equal(r.status, 401, 'the revoked session');
  });

  const code = await org.stop();
  await step('fake-org kept its own contracts (--check-contracts)', async () => {
    equal(code, 0, `fake-org exit code (3: a contract violation)\n${org.stderr()}`);
  });
  process.exit(steps.finish());
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
