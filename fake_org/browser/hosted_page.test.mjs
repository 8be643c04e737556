// The simulated PSP's hosted payment page in a real browser, as a payer sees it: headless
// Chromium from Debian's packages, driven by playwright-core over CDP.
//
//   node fake_org/browser/hosted_page.test.mjs --fake-org build/bin/fake-org [--screenshots DIR]
//
// Starts fake-org on an ephemeral port and a tiny merchant server (the
// SuccessURL / FailureURL), then clicks through: Pay; Decline and a declined
// card, then Pay from the same RedirectURL; Cancel; the 3-D Secure challenge
// card, passed and failed; a wallet (PayPal) page. After each landing it asks the org's API for the
// installment's status.
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
const CHALLENGE_CARD = '4000 0000 0000 3220';
const DECLINE_CARD = '4000 0000 0000 0002';

// --- fake-org --------------------------------------------------------------

async function api(org, method, p, body) {
  const r = await fetch(`${org.url}${API}${p}`, {
    method,
    headers: { Authorization: `Bearer ${org.token}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  check(r.status === 200, `${method} ${p}: HTTP ${r.status} ${text.slice(0, 400)}`);
  return JSON.parse(text);
}

async function createCardIntent(org, merchant, firstName, method = 'CreditCard') {
  const pi = await api(org, 'POST', '/PaymentIntent', {
    SuccessURL: `${merchant.url}/thanks`,
    FailureURL: `${merchant.url}/sorry?from=psp`,
    Payer: { Contact: { CrmFields: { FirstName: firstName, LastName: 'Browser',
                                     Email: `${firstName.toLowerCase()}@example.org` } } },
    OneTime: { Amount: 25 },
    PaymentMethod: { Name: method },
  });
  check(typeof pi.RedirectURL === 'string' && pi.RedirectURL.includes('/psp/checkout/'),
        `no hosted page RedirectURL: ${JSON.stringify(pi)}`);
  const read = await api(org, 'GET', `/PaymentIntent/${pi.Id}`);
  return { id: pi.Id, redirect: pi.RedirectURL, installment: read.OneTime.Id };
}

// Stored fields the API does not return (the payment profile): the fake's
// admin records, which need no token.
async function adminRecord(org, object, id) {
  const r = await fetch(`${org.url}/__admin/records/${object}/${id}`);
  check(r.status === 200, `admin ${object}/${id}: HTTP ${r.status}`);
  return r.json();
}

async function installmentStatus(org, intent) {
  return (await api(org, 'GET', `/Installment/${intent.installment}`)).Status;
}

// --- the merchant: where SuccessURL and FailureURL point -------------------

function startMerchant() {
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      const u = new URL(req.url, 'http://merchant');
      const title = u.pathname === '/thanks' ? 'Thank you' : 'Payment not completed';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><title>${title}</title><h1>${title}</h1>`);
    });
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

// --- the cases --------------------------------------------------------------

async function landOn(page, merchant, where, intent) {
  await page.waitForURL((u) => u.href.startsWith(`${merchant.url}/${where}`), { timeout: 15000 });
  const u = new URL(page.url());
  check(u.searchParams.get('payment_intent') === intent.id,
        `landed on ${u.href}, expected payment_intent=${intent.id} in the query`);
  if (where === 'sorry') check(u.searchParams.get('from') === 'psp', `FailureURL query lost: ${u}`);
}

async function shot(page, name) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

const cases = {
  async 'Pay lands on the SuccessURL and collects the installment'(ctx) {
    const { org, merchant, page } = ctx;
    const intent = await createCardIntent(org, merchant, 'Ada');
    await page.goto(intent.redirect);
    check((await page.textContent('#merchant')).trim().length > 0, 'no merchant on the page');
    check((await page.textContent('#amount')).includes('25.00 EUR'), 'amount/currency not shown');
    check((await page.textContent('#method')).includes('CreditCard'), 'method not shown');
    check((await page.textContent('#processor')).trim().length > 0, 'no processor on the page');
    await shot(page, 'checkout');
    await page.click('#pay');
    await landOn(page, merchant, 'thanks', intent);
    check(await installmentStatus(org, intent) === 'Collected', 'installment not Collected');
  },

  async 'a wallet (PayPal) page asks for the login only; Pay collects with wallet data'(ctx) {
    const { org, merchant, page } = ctx;
    const intent = await createCardIntent(org, merchant, 'Mary', 'PayPal');
    await page.goto(intent.redirect);
    check((await page.textContent('#method')).includes('PayPal'), 'method not shown');
    check(await page.isVisible('#email'), 'the wallet page asks for no login');
    check(await page.locator('#card_number').count() === 0, 'the wallet page asks for a card');
    check(await page.locator('#iban').count() === 0, 'the wallet page asks for an IBAN');
    await shot(page, 'wallet');
    await page.fill('#email', 'mary@wallet.example');
    await page.click('#pay');
    await landOn(page, merchant, 'thanks', intent);
    check(await installmentStatus(org, intent) === 'Collected', 'wallet installment not Collected');
    const inst = await adminRecord(org, 'cpm__Installment__c', intent.installment);
    const profile = await adminRecord(org, 'cpm__Payment_Profile__c', inst.cpm__Payment_Profile__c);
    check(profile.cpm__Wallet_Email__c === 'mary@wallet.example',
          `profile has no wallet login: ${JSON.stringify(profile)}`);
    check(typeof profile.cpm__Wallet_Account_Id__c === 'string', 'profile has no wallet payer id');
    for (const f of ['cpm__Card_Brand__c', 'cpm__Card_Last_Four__c', 'cpm__Card_Expiry_Month__c',
                     'cpm__Card_Expiry_Year__c', 'cpm__IBAN__c'])
      check(!(f in profile), `wallet profile has ${f}: ${JSON.stringify(profile)}`);
  },

  async 'Decline, then a declined card, then Pay from the same RedirectURL'(ctx) {
    const { org, merchant, page } = ctx;
    const intent = await createCardIntent(org, merchant, 'Grace');
    await page.goto(intent.redirect);
    await page.click('#decline');
    await landOn(page, merchant, 'sorry', intent);
    check(await installmentStatus(org, intent) === 'Outstanding', 'open after a decline');

    await page.goto(intent.redirect);
    check(await page.isVisible('#last-outcome'), 'the retry page says nothing of the decline');
    await shot(page, 'retry');
    await page.fill('#card_number', DECLINE_CARD);
    await page.click('#pay');
    await landOn(page, merchant, 'sorry', intent);
    check(await installmentStatus(org, intent) === 'Outstanding', 'open after a declined card');

    await page.goto(intent.redirect);
    await page.fill('#card_number', '5555 5555 5555 4444');
    await page.click('#pay');
    await landOn(page, merchant, 'thanks', intent);
    check(await installmentStatus(org, intent) === 'Collected', 'not Collected after the retry');

    await page.goto(intent.redirect);
    check(await page.isVisible('#completed'), 'a paid session offers to pay again');
  },

  async 'Cancel lands on the FailureURL and leaves the installment open'(ctx) {
    const { org, merchant, page } = ctx;
    const intent = await createCardIntent(org, merchant, 'Hedy');
    await page.goto(intent.redirect);
    await page.click('#cancel');
    await landOn(page, merchant, 'sorry', intent);
    check(await installmentStatus(org, intent) === 'Outstanding', 'not open after Cancel');
  },

  async 'the challenge card asks for 3-D Secure; passing it pays'(ctx) {
    const { org, merchant, page } = ctx;
    const intent = await createCardIntent(org, merchant, 'Katherine');
    await page.goto(intent.redirect);
    await page.fill('#card_number', CHALLENGE_CARD);
    await page.click('#pay');
    await page.waitForSelector('#challenge', { timeout: 15000 });
    check((await page.textContent('#card-last4')).trim() === '3220', 'challenge names no card');
    check(await installmentStatus(org, intent) === 'Outstanding', 'paid before the challenge');
    await shot(page, 'challenge');
    await page.click('#challenge-pass');
    await landOn(page, merchant, 'thanks', intent);
    check(await installmentStatus(org, intent) === 'Collected', 'not Collected after the challenge');
  },

  async 'failing the challenge declines; the payer retries and pays'(ctx) {
    const { org, merchant, page } = ctx;
    const intent = await createCardIntent(org, merchant, 'Margaret');
    await page.goto(intent.redirect);
    await page.fill('#card_number', CHALLENGE_CARD);
    await page.click('#pay');
    await page.click('#challenge-fail');
    await landOn(page, merchant, 'sorry', intent);
    check(await installmentStatus(org, intent) === 'Outstanding', 'open after a failed challenge');

    await page.goto(intent.redirect);
    await page.fill('#card_number', CHALLENGE_CARD);
    await page.click('#pay');
    await page.click('#challenge-pass');
    await landOn(page, merchant, 'thanks', intent);
    check(await installmentStatus(org, intent) === 'Collected', 'not Collected after the retry');
  },
};

// --- main -------------------------------------------------------------------

async function main() {
  const browser = await launchChromium('hosted page');
  let org, merchant;
  let failed = 0;
  try {
    org = await startFakeOrg(fakeOrgBin);
    org.token = await clientToken(org.url);
    merchant = await startMerchant();
    for (const [name, run] of Object.entries(cases)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(15000);
      try {
        await run({ org, merchant, page });
        console.log(`ok      ${name}`);
      } catch (e) {
        failed++;
        console.log(`FAILED  ${name}\n        at ${page.url()}\n        ${e.stack || e}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    if (merchant) merchant.server.close();
    if (org) {
      const code = await org.stop();
      if (code !== 0) {
        failed++;
        console.log(`FAILED  fake-org exited ${code}: it broke its own contract\n${org.stderr()}`);
      }
    }
  }
  const total = Object.keys(cases).length;
  console.log(`${total - failed} of ${total} browser cases passed (Chromium at ${chromiumPath})`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`hosted page browser test: ${e.stack || e}`);
  process.exit(1);
});
