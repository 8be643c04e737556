// The dashboard at /__admin/ui in a real browser (decision 100): headless Chromium
// from Debian's packages, driven by playwright-core, one launch for all.
//
//   node fake_org/browser/dashboard.test.mjs --fake-org build/bin/fake-org [--screenshots docs]
//
// Creates an inline SEPA debit through the API (with a webhook receiver),
// opens the dashboard, finds the intent, follows it to its installment,
// advances the clock with the page's button and sees the collection and the
// webhook's delivery attempt appear; then the journal filter and the fault
// form; last, a page of another site trying to drive the admin API. With --screenshots DIR it saves the main pages as DIR/dashboard-*.png
// (the README's pictures: `npm run screenshots` style, run by hand).
//
// Exit codes: 0 all passed, 1 a check failed, 77 Chromium cannot start (CTest
// SKIP_RETURN_CODE; the reason is printed loudly, never a silent pass).
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { CheckFailed, check, chromiumPath, cliArg, clientToken, launchChromium } from
  '../testing/browser_kit.mjs';
import { startFakeOrg } from '../testing/fake_org_process.mjs';

const fakeOrgBin = cliArg('--fake-org', process.env.FAKE_ORG_BIN || 'build/bin/fake-org');
const screenshotDir = cliArg('--screenshots', process.env.BROWSER_SCREENSHOTS || '');
const API = '/services/apexrest/cpm/v2';

async function json(org, method, p, body, headers = {}) {
  const r = await fetch(`${org.url}${p}`, {
    method, headers: { 'Content-Type': 'application/json', ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  check(r.ok, `${method} ${p}: HTTP ${r.status} ${text.slice(0, 400)}`);
  return JSON.parse(text);
}

// Where the org's webhooks go: answers 200 to each.
function startReceiver() {
  return new Promise((resolve) => {
    const received = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => { received.push(body); res.writeHead(200); res.end('ok'); });
    });
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, received, url: `http://127.0.0.1:${server.address().port}/hooks` }));
  });
}

async function shot(page, name) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(screenshotDir, `dashboard-${name}.png`) });
}

// Reloads until `fn` holds (webhook delivery runs on the engine's own threads).
async function eventually(page, fn, what) {
  for (let i = 0; i < 50; i++) {
    if (await fn()) return;
    await page.waitForTimeout(200);
    await page.reload();
  }
  throw new CheckFailed(`never: ${what}`);
}

const steps = {
  async 'the overview shows the org, its clock, its newest intents and record counts'(ctx) {
    const { page, ui, intent } = ctx;
    await page.goto(`${ui}`);
    check((await page.textContent('h1')) === 'Local Fake Org', 'overview title');
    check((await page.textContent('#clock')).startsWith('2027-03-01T09:0'), 'org clock shown');
    check((await page.textContent('#org')).includes('production'), 'environment shown');
    const installments = page.locator('#record-counts tr', { hasText: 'cpm__Installment__c' });
    check((await installments.locator('td.num').textContent()) === '1', 'one installment counted');
    const recent = page.locator('#recent-intents tr', { hasText: intent.id });
    check((await recent.count()) === 1, 'the intent this test created among the recent ones');
    check((await recent.textContent()).includes('Outstanding'), 'with its status');
    check((await recent.locator('td.ts').first().evaluate((td) => getComputedStyle(td).whiteSpace))
          === 'nowrap', 'its dates kept on one line');
    await shot(page, 'overview');
  },

  async 'the intent opens from the header and links to its installment'(ctx) {
    const { page, intent } = ctx;
    await page.fill('header input[name=id]', intent.id);
    await page.click('header button');
    check((await page.textContent('h1')) === `Payment intent ${intent.id}`, 'intent page title');
    const request = page.locator('#requests tr', { hasText: 'POST' });
    check((await request.count()) === 1, 'the POST /PaymentIntent in the timeline');
    check((await request.textContent()).includes(`${API}/PaymentIntent`), 'the request path');
    check((await page.textContent('#collections')) === 'No payment collected yet.',
          'nothing collected before the clock moves');
    await page.click(`#intent-records a:text("${intent.installment}")`);
    check((await page.textContent('h1')) === `cpm__Installment__c ${intent.installment}`,
          'installment page');
    const status = page.locator('#fields tr', { hasText: 'cpm__Status__c' });
    check((await status.locator('td').textContent()) === 'Outstanding', 'installment Outstanding');
    const contact = page.locator('#fields tr', { hasText: 'cpm__Contact__c' });
    check((await contact.locator('a').count()) === 1, 'the contact is a link');
    check((await page.textContent('pre')).includes('"attributes"'), 'the data API form');
    await shot(page, 'record');
    await contact.locator('a').click();
    check((await page.textContent('h1')).startsWith('Contact '), 'followed to the contact');
    const back = page.locator('#referenced-by a', { hasText: intent.installment });
    check((await back.count()) === 1, 'the contact page lists the installment referencing it');
  },

  async 'advancing the clock from the page collects and delivers the webhook'(ctx) {
    const { page, ui, intent } = ctx;
    await page.goto(ui);
    await Promise.all([page.waitForEvent('load'), page.click('button:text("Advance 1d")')]);
    check((await page.textContent('#clock')).startsWith('2027-03-02T09:0'), 'clock advanced 1d');
    check((await page.textContent('#result')).includes('POST /__admin/clock \u2192 200'),
          'the call and its status shown');
    await page.goto(`${ui}/intent?id=${intent.id}`);
    await eventually(page, async () =>
      (await page.locator('.webhook', { hasText: 'installment.status_change' })
        .locator('.attempts td', { hasText: '200' }).count()) > 0,
    'an installment.status_change delivered with HTTP 200');
    check((await page.textContent('#collections')) === '1 payment(s) collected (above, cpm__Payment__c).',
          'the collection');
    const payment = page.locator('#intent-records tr', { hasText: 'cpm__Payment__c' });
    check((await payment.textContent()).includes('2027-03-02'), 'collected on the clock day');
    await shot(page, 'intent');
    const before = await page.locator('.webhook').count();
    const statusChange = page.locator('.webhook', { hasText: 'installment.status_change' }).first();
    await Promise.all([page.waitForEvent('load'), statusChange.locator('button').click()]);
    check((await page.textContent('#result')).includes('/resend \u2192 202'), 'resend accepted');
    check((await page.locator('.webhook').count()) === before, 'a resend is the same event');
  },

  async 'the journal filters by path and the fault form adds and clears'({ page, ui }) {
    await page.goto(`${ui}/requests`);
    await page.fill('#journal-filter input[name=path]', '/PaymentIntent');
    await page.click('#journal-filter button');
    const rows = page.locator('#requests tr');
    check((await rows.count()) === 3, `POST and GET under /PaymentIntent (${await rows.count() - 1})`);
    await page.fill('#journal-filter input[name=method]', 'POST');
    await page.click('#journal-filter button');
    check((await rows.count()) === 2, `one POST under /PaymentIntent (${await rows.count() - 1})`);
    await shot(page, 'requests');
    await page.goto(`${ui}/faults`);
    await page.fill('#add-fault input[name=status]', '502');
    await page.fill('#add-fault input[name=times]', '2');
    await Promise.all([page.waitForEvent('load'), page.click('#add-fault button')]);
    const fault = page.locator('#faults tr', { hasText: '/PaymentIntent' });
    check((await fault.textContent()).includes('502'), 'the fault listed');
    await shot(page, 'faults');
    await Promise.all([page.waitForEvent('load'), page.click('#clear-faults')]);
    check((await page.locator('#faults tr:not(.empty)').count()) === 1, 'faults cleared');
    check((await page.textContent('#faults tr.empty')) === 'no active faults',
          'the empty table says so');
  },

  async 'the webhook log and record search'({ page, ui, intent }) {
    await page.goto(`${ui}/webhooks`);
    check((await page.locator('#webhooks tr').count()) >= 4, 'events listed');
    await page.goto(`${ui}/records/Contact?q=weber`);
    const found = page.locator('#records tr');
    check((await found.count()) === 2, 'one contact matches "weber"');
    const headers = await page.locator('#records th').allTextContents();
    check(headers.slice(0, 4).join(',') === 'Id,LastName,FirstName,Email',
          `the Contact list shows the name first (${headers.join(',')})`);
    check((await found.nth(1).textContent()).includes('Weber'), 'the last name shown');
    check((await page.textContent('#pager')).startsWith('records 1 to 1 of 1'), 'the pager');
    await page.goto(`${ui}/records/cpm__Installment__c?q=${intent.installment}`);
    check((await page.locator('#records tr').count()) === 2, 'found by id');
  },

  async 'a page of another site cannot drive the admin API (docs/security.md)'(ctx) {
    const { org, page } = ctx;
    const before = (await json(org, 'GET', '/__admin/clock')).now;
    const contacts = (await json(org, 'GET', '/__admin/records/Contact')).totalSize;
    // What a hostile page can send without a preflight: no-cors fetches and a form.
    await page.goto('about:blank');
    await page.setContent('<html><body>elsewhere</body></html>');
    await page.evaluate(async (url) => {
      for (const [p, body] of [['/__admin/clock', '{"advance": "30d"}'], ['/__admin/reset', '']])
        await fetch(url + p, { method: 'POST', mode: 'no-cors', body,
                               headers: { 'Content-Type': 'text/plain' } }).catch(() => {});
    }, org.url);
    await Promise.all([page.waitForEvent('load'), page.evaluate((url) => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.enctype = 'text/plain';
      form.action = `${url}/__admin/records/Contact`;
      const field = document.createElement('input');
      field.name = '{"LastName": "Mallory", "x": "';
      field.value = '"}';
      form.appendChild(field);
      document.body.appendChild(form);
      form.submit();
    }, org.url)]);
    check((await page.textContent('body')).includes('own address'), 'the form post refused');
    const after = (await json(org, 'GET', '/__admin/clock')).now;
    check(after.slice(0, 10) === before.slice(0, 10), `clock unmoved (${before} -> ${after})`);
    check((await json(org, 'GET', '/__admin/records/Contact')).totalSize === contacts,
          'no contact created, none reset away');
  },
};

async function setUp(org, receiver) {
  await json(org, 'POST', '/__admin/clock', { set: '2027-03-01T09:00:00Z' });
  const auth = { Authorization: `Bearer ${await clientToken(org.url)}` };
  const pi = await json(org, 'POST', `${API}/PaymentIntent`, {
    SuccessURL: 'https://shop.example/thanks', FailureURL: 'https://shop.example/sorry',
    WebhookURL: receiver.url,
    Payer: { Contact: { CrmFields: { FirstName: 'Max', LastName: 'Weber',
                                     Email: 'weber@example.de' } } },
    OneTime: { Amount: 10 },
    PaymentMethod: { Name: 'SEPA Direct Debit',
                     Parameters: { IBAN: 'DE89370400440532013000', AccountHolderName: 'Max Weber' } },
  }, auth);
  const read = await json(org, 'GET', `${API}/PaymentIntent/${pi.Id}`, undefined, auth);
  return { id: pi.Id, installment: read.OneTime.Id };
}

async function main() {
  const started = Date.now();
  const browser = await launchChromium('dashboard');
  let org, receiver;
  let failed = 0;
  try {
    org = await startFakeOrg(fakeOrgBin);
    receiver = await startReceiver();
    const intent = await setUp(org, receiver);
    const page = await browser.newPage();
    page.setDefaultTimeout(15000);
    const ctx = { org, page, intent, ui: `${org.url}/__admin/ui` };
    // The steps build on each other (the clock moves once): the first failure ends the run.
    for (const [name, run] of Object.entries(steps)) {
      try {
        await run(ctx);
        console.log(`ok      ${name}`);
      } catch (e) {
        failed++;
        console.log(`FAILED  ${name}\n        at ${page.url()}\n        ${e.stack || e}`);
        break;
      }
    }
  } finally {
    await browser.close();
    if (receiver) receiver.server.close();
    if (org) {
      const code = await org.stop();
      if (code !== 0) {
        failed++;
        console.log(`FAILED  fake-org exited ${code}: it broke its own contract\n${org.stderr()}`);
      }
    }
  }
  const total = Object.keys(steps).length;
  console.log(`${failed ? 'FAILED' : `${total} of ${total} dashboard steps passed`} ` +
              `in ${((Date.now() - started) / 1000).toFixed(1)} s (Chromium at ${chromiumPath})`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`dashboard browser test: ${e.stack || e}`);
  process.exit(1);
});
