#!/usr/bin/env node
// Writes contracts/openapi.yaml (OpenAPI 3.0.3) from the strict JSON Schemas,
// the valid examples and the route table (contracts/routes.yaml: the rows
// marked openapi), so that the document cannot drift from the schemas and
// routes the checker and the fake use.
//
//   node contracts/tools/openapi.js           rewrite contracts/openapi.yaml
//   node contracts/tools/openapi.js --check   exit 1 if it is not up to date
//
// OpenAPI 3.0 schemas are a dialect of draft-05, so the conversion rewrites
// "const" as a one-value "enum", "exclusiveMinimum": n as a boolean flag,
// "false" as {"not": {}}, and type lists as anyOf + nullable; it drops
// "contains" (noted in the description). The JSON Schemas stay normative.
'use strict';

const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');

const CONTRACTS = path.join(__dirname, '..');
const SCHEMAS = path.join(CONTRACTS, 'schemas');
const EXAMPLES = path.join(CONTRACTS, 'examples');
const OUTPUT = path.join(CONTRACTS, 'openapi.yaml');
const ROUTES = path.join(CONTRACTS, 'routes.yaml');
const BASE = 'https://schemas.fake-crm-org.invalid/cpm/v2/';
const PROFILE = 'strict';

// ---- loading the strict profile, as the checker does -----------------------

function jsonFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonFiles(p));
    else if (entry.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

const docs = new Map(); // logical name -> document
const messages = [];
for (const file of jsonFiles(SCHEMAS)) {
  const rel = path.relative(SCHEMAS, file).split(path.sep).join('/');
  if (rel.startsWith('lenient/')) continue;
  const profiled = rel.startsWith(`${PROFILE}/`);
  const name = profiled ? rel.slice(PROFILE.length + 1) : rel;
  if (docs.has(name) && !profiled) continue;
  docs.set(name, JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!rel.includes('/')) messages.push(name.replace(/\.json$/, ''));
}

function pascal(s) {
  return s
    .replace(/(^|_)([a-z0-9])/g, (m, sep, c) => c.toUpperCase())
    .replace(/^Oauth/, 'OAuth')
    .replace(/^([a-z])/, (m, c) => c.toUpperCase());
}

// Where a reference leads: {doc, pointer}, both resolved against the referrer.
function target(ref, fromDoc) {
  const [file, fragment = ''] = ref.split('#');
  let doc = fromDoc;
  if (file) {
    const dir = fromDoc.includes('/') ? fromDoc.slice(0, fromDoc.lastIndexOf('/') + 1) : '';
    doc = path.posix.normalize(dir + file);
  }
  return { doc, pointer: decodeURIComponent(fragment) };
}

function at(doc, pointer) {
  let node = docs.get(doc);
  if (!node) throw new Error(`no schema ${doc}`);
  for (const token of pointer.split('/').slice(1)) {
    node = node[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`${doc}#${pointer} points to nothing`);
  }
  return node;
}

// A definition that is only {"$ref": ...} is an alias of its target.
function unalias(t) {
  for (;;) {
    const node = at(t.doc, t.pointer);
    const keys = Object.keys(node).filter((k) => !['description', 'title'].includes(k));
    if (keys.length !== 1 || keys[0] !== '$ref') return t;
    t = target(node.$ref, t.doc);
  }
}

const key = (t) => `${t.doc}#${t.pointer}`;

// Components: every message, and every definition referenced more than once.
const refCounts = new Map();
function countRefs(node, doc) {
  if (Array.isArray(node)) node.forEach((n) => countRefs(n, doc));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const t = unalias(target(v, doc));
        refCounts.set(key(t), (refCounts.get(key(t)) || 0) + 1);
      } else if (k !== 'enum' && k !== 'const') countRefs(v, doc);
    }
  }
}
for (const [name, doc] of docs) countRefs(doc, name);

const componentOf = new Map(); // key -> component name
for (const m of messages) componentOf.set(key({ doc: `${m}.json`, pointer: '' }), pascal(m));
const FILE_PREFIX = { 'common/payment_intent_blocks.json': 'Request', 'configuration.json': 'Org' };
for (const [k, count] of [...refCounts].sort()) {
  if (count < 2 || componentOf.has(k)) continue;
  const [doc, pointer] = k.split('#');
  const def = pointer.split('/').pop();
  const name = (FILE_PREFIX[doc] || '') + pascal(def);
  if ([...componentOf.values()].includes(name)) throw new Error(`component name ${name} used twice (${k})`);
  componentOf.set(k, name);
}

// ---- draft-07 -> OpenAPI 3.0 schema objects --------------------------------

const DROP = new Set(['$schema', '$id', '$comment', 'definitions']);

function convert(node, doc) {
  if (node === true) return {};
  if (node === false) return { not: {} };
  if (node.$ref) {
    const t = unalias(target(node.$ref, doc));
    const component = componentOf.get(key(t));
    if (component) return { $ref: `#/components/schemas/${component}` };
    return convert(at(t.doc, t.pointer), t.doc);
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (DROP.has(k)) continue;
    if (k === 'const') out.enum = [v];
    else if (k === 'exclusiveMinimum' || k === 'exclusiveMaximum') {
      out[k === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = v;
      out[k] = true;
    } else if (k === 'type' && Array.isArray(v)) {
      // OpenAPI 3.0 wants "nullable" beside a "type", so it goes on one branch.
      const types = v.filter((t) => t !== 'null');
      const branches = types.map((t, i) => (i === 0 && v.includes('null') ? { type: t, nullable: true } : { type: t }));
      if (branches.length === 1) Object.assign(out, branches[0]);
      else out.anyOf = branches;
    } else if (k === 'contains') {
      out.description = `${out.description || node.description || ''} (The JSON Schema also requires an item matching: ${JSON.stringify(v)}.)`.trim();
    } else if (['properties', 'patternProperties'].includes(k)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, convert(s, doc)]));
    } else if (['allOf', 'anyOf', 'oneOf'].includes(k)) {
      out[k] = v.map((s) => convert(s, doc));
    } else if (['items', 'additionalProperties', 'not'].includes(k) && typeof v === 'object') {
      if (Array.isArray(v)) throw new Error(`${doc}: tuple "items" has no OpenAPI 3.0 form`);
      out[k] = convert(v, doc);
    } else out[k] = v;
  }
  return out;
}

// Messages that OpenAPI 3.0 describes otherwise: empty bodies, and the
// strict 400 refinement (a tuple "items"), which is documented as ErrorResponse.
// AnyErrorResponse and Webhook serve the lenient profile and external tools;
// the paths name the specific bodies instead. ProviderStateRequest is the
// admin API's (POST /__admin/provider-states), which the document leaves out.
const UNCONVERTED = new Set([
  'OAuthRevokeResponse',
  'DataNoContent',
  'Error400Response',
  'AnyErrorResponse',
  'Webhook',
  'ProviderStateRequest',
]);

const components = {};
for (const [k, name] of [...componentOf].sort((a, b) => a[1].localeCompare(b[1]))) {
  const [doc, pointer] = k.split('#');
  if (UNCONVERTED.has(name)) continue;
  components[name] = convert(at(doc, pointer), doc);
}

// ---- examples ---------------------------------------------------------------

function examplesOf(schema, names) {
  const dir = path.join(EXAMPLES, schema, 'valid');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const chosen = names ? names.map((n) => `${n}.json`) : files;
  const out = {};
  for (const f of chosen) {
    if (!files.includes(f)) throw new Error(`no example ${schema}/valid/${f}`);
    const name = f.replace(/\.json$/, '');
    out[name] = {
      summary: name.replace(/_/g, ' '),
      value: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')),
    };
  }
  return out;
}

function json(schemaComponent, exampleSchema, names) {
  return {
    'application/json': {
      schema: { $ref: `#/components/schemas/${schemaComponent}` },
      examples: examplesOf(exampleSchema, names),
    },
  };
}

// ---- the route table ----------------------------------------------------------

const table = yaml.load(fs.readFileSync(ROUTES, 'utf8'));

// Schemas the document names otherwise: the strict 400 refinement (a tuple
// "items") as ErrorResponse, and the empty bodies of a revocation and of the
// data API's 204s as no content.
const DOCUMENTED_AS = {
  error_400_response: 'ErrorResponse',
  oauth_revoke_response: null,
  data_no_content: null,
};

function response(r) {
  // The platform's plain-text answers (the identity service's errors).
  if (r.content === 'text') {
    return {
      description: r.description,
      content: { 'text/plain': { schema: { type: 'string' }, example: r.example } },
    };
  }
  const component = r.schema in DOCUMENTED_AS ? DOCUMENTED_AS[r.schema] : pascal(r.schema);
  if (!component) return { description: r.description };
  return { description: r.description, content: json(component, r.schema, r.examples) };
}

function requestBody(request) {
  if (request.content === 'json') {
    return { required: true, content: json(pascal(request.schema), request.schema) };
  }
  if (request.content === 'csv') {
    return { required: true, content: { 'text/csv': { schema: { type: 'string' } } } };
  }
  return {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: { type: 'object', properties: request.fields, required: request.required },
      },
    },
  };
}

const pathParam = (name, p) => ({
  name,
  in: 'path',
  required: true,
  description: p.description,
  schema: { type: 'string', minLength: 1 },
});

// ---- the document -----------------------------------------------------------

const webhookResponses = {
  200: { description: 'Any 2xx acknowledges the notification.' },
  '4XX': { description: 'Rejected. The org counts any other status as a failed delivery and tries again (the fake: up to webhooks.max_attempts, with backoff).' },
  '5XX': { description: 'Failed; tried again as for 4XX.' },
};

const webhookCallbacks = {
  paymentIntentEvents: {
    '{$request.body#/WebhookURL}': {
      post: {
        summary: 'paymentIntent.* notification',
        description: 'Sent when processing starts (created, in one revision of the reference), finishes (processed), stalls (in_review) or fails (failed) (spec 6.2). Does not mean money is collected.',
        operationId: 'paymentIntentWebhook',
        requestBody: { required: true, content: json('WebhookPaymentIntent', 'webhook_payment_intent') },
        responses: webhookResponses,
      },
    },
  },
  installmentEvents: {
    '{$request.body#/WebhookURL}': {
      post: {
        summary: 'installment.* notification',
        description: 'Sent when an installment is created or its status changes (spec 6.2); the sample in spec 6.3 uses the type "installment".',
        operationId: 'installmentWebhook',
        requestBody: { required: true, content: json('WebhookInstallment', 'webhook_installment') },
        responses: webhookResponses,
      },
    },
  },
};
const CALLBACKS = { webhooks: webhookCallbacks };

// Paths outside the API's base path (OAuth's) are on the org's instance.
const oauthServers = [
  { url: 'http://localhost:8080', description: 'The local fake org (its instance_url)' },
  { url: 'https://{instance}', description: 'An org\'s instance_url', variables: { instance: { default: 'my-org.my.crm.example' } } },
];

function operation(row) {
  const op = { tags: [row.tag], summary: row.summary };
  if (row.description) op.description = row.description;
  op.operationId = row.operationId;
  if (row.auth !== 'bearer') op.security = [];
  const params = Object.entries(row.params || {});
  if (params.length) op.parameters = params.map(([name, p]) => pathParam(name, p));
  if (row.request && row.request.content !== 'none') op.requestBody = requestBody(row.request);
  op.responses = Object.fromEntries(
    Object.entries(row.responses).map(([status, r]) => [status, response(r)]),
  );
  if (row.callbacks) {
    if (!CALLBACKS[row.callbacks]) throw new Error(`${row.operationId}: no callbacks "${row.callbacks}"`);
    op.callbacks = CALLBACKS[row.callbacks];
  }
  return op;
}

const paths = {};
// The data API's rows are relative to its mount, on the instance.
const DATA_MOUNT = '/services/data';
for (const row of table.routes.filter((r) => r.openapi)) {
  const where = row.area === 'data' ? DATA_MOUNT + row.path : row.path;
  if (!paths[where]) paths[where] = row.area === 'api' ? {} : { servers: oauthServers };
  const method = row.method.toLowerCase();
  if (paths[where][method]) throw new Error(`${row.method} ${where} twice in ${ROUTES}`);
  paths[where][method] = operation(row);
}

const document = {
  openapi: '3.0.3',
  info: {
    title: 'Payment Intent Service API',
    version: '2.0.0',
    description: [
      'One-time and recurring payments written to a CRM org (spec sections in brackets).',
      '',
      'Generated by contracts/tools/openapi.js from the strict JSON Schemas in contracts/schemas;',
      'the schemas are normative. contracts/README.md describes the lenient profile for real orgs.',
    ].join('\n'),
    license: { name: 'Proprietary; for testing against the API only' },
  },
  servers: [
    { url: 'http://localhost:8080/services/apexrest/cpm/v2', description: 'The local fake org' },
    {
      url: 'https://{instance}/services/apexrest/cpm/v2',
      description: 'An org (production or sandbox); the base path ends in /cpm/v2 (spec 9)',
      variables: { instance: { default: 'my-org.my.crm.example' } },
    },
  ],
  security: [{ production: ['full'] }, { sandbox: ['full'] }],
  tags: table.tags,
  paths,
  components: {
    securitySchemes: {
      production: {
        type: 'oauth2',
        description: 'Web server flow of a production org (spec 5.3); token at {instance_url}/services/oauth2/token (the instance, not the login host). fake-org serves this login host locally as {instance_url}/login/services/oauth2/authorize.',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://login.crm.example/services/oauth2/authorize',
            tokenUrl: 'https://my-org.my.crm.example/services/oauth2/token',
            refreshUrl: 'https://my-org.my.crm.example/services/oauth2/token',
            scopes: { full: 'Full access' },
          },
        },
      },
      sandbox: {
        type: 'oauth2',
        description: 'Web server flow of a sandbox org (spec 5.3); token at {instance_url}/services/oauth2/token (the instance, not the login host). fake-org serves this login host locally as {instance_url}/test/services/oauth2/authorize.',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://test.crm.example/services/oauth2/authorize',
            tokenUrl: 'https://my-org--uat.sandbox.my.crm.example/services/oauth2/token',
            refreshUrl: 'https://my-org--uat.sandbox.my.crm.example/services/oauth2/token',
            scopes: { full: 'Full access' },
          },
        },
      },
    },
    schemas: components,
  },
};

const text =
  '# Generated by contracts/tools/openapi.js from contracts/schemas and contracts/examples.\n' +
  '# Do not edit: change the schemas, examples or the generator, then run it.\n' +
  yaml.dump(document, { lineWidth: 110, noRefs: true, sortKeys: false, quotingType: "'" });

if (process.argv.includes('--check')) {
  const current = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf8') : '';
  if (current !== text) {
    console.error('contracts/openapi.yaml is not up to date: run node contracts/tools/openapi.js');
    process.exit(1);
  }
  console.log('contracts/openapi.yaml is up to date');
} else {
  fs.writeFileSync(OUTPUT, text);
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT)} (${Object.keys(components).length} schemas)`);
}
