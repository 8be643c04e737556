// pact-js's Verifier (the official Pact verifier, its Rust core inside the
// npm package) run once against a running fake-org, in a process of its own
// so that pact.test.mjs can read what the verifier prints.
//
//   node verify.mjs PACT.json http://127.0.0.1:PORT
//
// Provider states go straight to fake-org's POST /__admin/provider-states
// (providerStatesSetupUrl); the proxy pact-js runs in front of the provider
// puts a token on each request, taken just before it: a state may move the
// org clock past an older token's expiry. Exit 0 verified, 1 not.
import { Verifier } from '@pact-foundation/pact';

const [pactFile, org] = process.argv.slice(2);

async function token() {
  const r = await fetch(`${org}/services/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'local-client',
                                client_secret: 'local-secret' }),
  });
  if (r.status !== 200) throw new Error(`no token from ${org}: ${r.status} ${await r.text()}`);
  return (await r.json()).access_token;
}
const verifier = new Verifier({
  provider: 'fake-org',
  providerBaseUrl: org,
  pactUrls: [pactFile],
  providerStatesSetupUrl: `${org}/__admin/provider-states`,
  requestFilter: (req, res, next) => {
    token().then((t) => { req.headers.authorization = `Bearer ${t}`; next(); }, next);
  },
  logLevel: 'warn',
});
verifier.verifyProvider().then(
  () => { console.log('VERIFIED'); process.exit(0); },
  (e) => { console.log(`NOT VERIFIED: ${e.message}`); process.exit(1); },
);
