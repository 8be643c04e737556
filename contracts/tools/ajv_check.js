#!/usr/bin/env node
// The ajv cross-check: an independent validator (ajv 8 + ajv-formats) loads
// contracts/schemas the way the C++ checker does and must reach the same
// verdicts.
//
//   node contracts/tools/ajv_check.js [--profile strict|lenient|both]
//        [--schemas DIR] [--examples DIR] [--captured DIR]...
//
// --examples: DIR/<schema>/valid/*.json pass; DIR/<schema>/invalid/*.json
//   ({"why", "expect": [{"pointer", "keyword"}], "body"}) fail in both
//   profiles with every expected error; lenient_only/ fail strict, pass lenient.
// --captured: every *.json file under DIR holds {"schema": name, "body": ...}
//   (or an array of them), optionally "valid": false and "profile"; or what
//   `fake-org --capture-dir` writes: {"kind", "method", "path", "status",
//   "checks": [{"profile", "schema", "valid", "report"}], "body"}, where each
//   check is the C++ checker's schema choice and verdict for one profile.
//   Each body must get the same verdict from ajv.
// --min-bodies N: fail unless the captured folders hold at least N bodies
//   (an empty capture proves nothing).
// Exit status 0 when everything agrees, 1 on a disagreement, 2 on bad usage
// or broken schemas.
'use strict';

const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const BASE = 'https://schemas.fake-crm-org.invalid/cpm/v2/';
const PROFILES = ['strict', 'lenient'];

function parseArgs(argv) {
  const args = { profile: 'both', schemas: path.join(__dirname, '..', 'schemas'), examples: null, captured: [], minBodies: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--profile') args.profile = next();
    else if (a === '--schemas') args.schemas = next();
    else if (a === '--examples') args.examples = next();
    else if (a === '--captured') args.captured.push(next());
    else if (a === '--min-bodies') args.minBodies = Number(next());
    else if (a === '--help' || a === '-h') {
      console.log(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 24).join('\n'));
      process.exit(0);
    } else fail(`unknown argument ${a}`);
  }
  if (args.profile !== 'both' && !PROFILES.includes(args.profile)) fail(`--profile ${args.profile}: strict, lenient or both`);
  if (!args.examples && args.captured.length === 0) fail('nothing to check: give --examples and/or --captured');
  return args;
}

function fail(message) {
  console.error(`ajv_check: ${message}`);
  process.exit(2);
}

function jsonFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonFiles(p));
    else if (entry.isFile() && entry.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`${file}: ${e.message}`);
  }
}

// The profile folder's files take the name one level up and win over a
// top-level file of that name; the other profile's folder is ignored.
function loadProfile(schemasDir, profile) {
  const other = PROFILES.find((p) => p !== profile);
  const docs = new Map();
  const messages = [];
  for (const file of jsonFiles(schemasDir)) {
    const rel = path.relative(schemasDir, file).split(path.sep).join('/');
    if (rel.startsWith(`${other}/`)) continue;
    const profiled = rel.startsWith(`${profile}/`);
    const name = profiled ? rel.slice(profile.length + 1) : rel;
    if (docs.has(name) && !profiled) continue;
    const doc = readJson(file);
    if (doc.$id !== BASE + name) fail(`${rel}: "$id" must be "${BASE + name}"`);
    docs.set(name, doc);
    if (!rel.includes('/')) messages.push(name.replace(/\.json$/, ''));
  }
  const ajv = new Ajv({
    allErrors: true,
    strict: true, // unknown keywords are schema errors: catches typos the C++ side would ignore
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  for (const doc of docs.values()) ajv.addSchema(doc);
  const validators = new Map();
  for (const name of messages) {
    try {
      validators.set(name, ajv.getSchema(BASE + name + '.json'));
    } catch (e) {
      fail(`${profile}/${name}: ${e.message}`);
    }
  }
  return validators;
}

function escapeToken(t) {
  return String(t).replace(/~/g, '~0').replace(/\//g, '~1');
}

// ajv's errors as the C++ checker words their place: a stray property at the
// property itself, a missing one at its parent.
function errorsOf(validate, body) {
  if (validate(body)) return [];
  return validate.errors.map((e) => {
    let pointer = e.instancePath;
    if (e.keyword === 'additionalProperties') pointer += '/' + escapeToken(e.params.additionalProperty);
    return { pointer, keyword: e.keyword, message: `${pointer || '(root)'}: ${e.keyword}: ${e.message}` };
  });
}

function describe(errors) {
  return errors.map((e) => `      ${e.message}`).join('\n');
}

function checkExamples(dir, profiles, validators, problems) {
  let count = 0;
  for (const file of jsonFiles(dir)) {
    const rel = path.relative(dir, file).split(path.sep).join('/');
    const [schema, kind] = rel.split('/');
    const content = readJson(file);
    if (!['valid', 'invalid', 'lenient_only'].includes(kind)) {
      problems.push(`${rel}: unknown folder ${kind}`);
      continue;
    }
    const body = kind === 'valid' ? content : content.body;
    for (const profile of profiles) {
      const validate = validators[profile].get(schema);
      if (!validate) {
        problems.push(`${rel}: no schema ${schema}`);
        continue;
      }
      const errors = errorsOf(validate, body);
      const shouldPass = kind === 'valid' || (kind === 'lenient_only' && profile === 'lenient');
      if (shouldPass && errors.length) problems.push(`${rel} [${profile}]: ajv rejects a valid body\n${describe(errors)}`);
      if (!shouldPass) {
        if (!errors.length) problems.push(`${rel} [${profile}]: ajv accepts an invalid body`);
        // lenient_only expectations describe the strict failure; invalid ones both.
        for (const want of content.expect || []) {
          if (!errors.some((e) => e.pointer === want.pointer && e.keyword === want.keyword)) {
            problems.push(`${rel} [${profile}]: expected ${want.keyword} at "${want.pointer}", ajv said\n${describe(errors)}`);
          }
        }
      }
      count++;
    }
  }
  return count;
}

// One verdict the C++ checker gave (or the file states) that ajv must share.
function checkVerdict(where, profile, schema, want, body, validators, problems, tally) {
  const validate = validators[profile] && validators[profile].get(schema);
  if (!validate) {
    problems.push(`${where}: no schema ${schema} in profile ${profile}`);
    return;
  }
  const errors = errorsOf(validate, body);
  if (want && errors.length) problems.push(`${where} [${profile}] ${schema}: the checker accepts it, ajv rejects it\n${describe(errors)}`);
  if (!want && !errors.length) problems.push(`${where} [${profile}] ${schema}: the checker rejects it, ajv accepts it`);
  tally.verdicts++;
  tally[want ? 'valid' : 'invalid']++;
  tally.schemas.add(schema);
}

function checkCaptured(dir, profiles, validators, problems) {
  const tally = { bodies: 0, verdicts: 0, valid: 0, invalid: 0, unmapped: 0, schemas: new Set() };
  if (!fs.existsSync(dir)) {
    problems.push(`${dir}: no such folder (was anything captured?)`);
    return tally;
  }
  for (const file of jsonFiles(dir)) {
    const rel = path.relative(dir, file);
    const content = readJson(file);
    const items = Array.isArray(content) ? content : [content];
    items.forEach((item, i) => {
      const where = items.length > 1 ? `${rel}[${i}]` : rel;
      if (item && Array.isArray(item.checks) && 'body' in item) {
        tally.bodies++;
        const route = item.kind === 'webhook' ? `webhook ${item.body && item.body.type}` : `${item.method} ${item.path} -> ${item.status}`;
        for (const check of item.checks) {
          if (!profiles.includes(check.profile)) continue;
          // No schema: a status the profile's contract does not list; the
          // checker's own verdict then rests on the route table, not a schema.
          if (check.schema === null) {
            tally.unmapped++;
            continue;
          }
          checkVerdict(`${where} (${route})`, check.profile, check.schema, Boolean(check.valid), item.body, validators, problems, tally);
        }
        return;
      }
      if (!item || typeof item.schema !== 'string' || !('body' in item)) {
        problems.push(`${where}: expected {"schema": name, "body": ...} or {"checks": [...], "body": ...}`);
        return;
      }
      tally.bodies++;
      const want = item.valid === undefined ? true : Boolean(item.valid);
      for (const profile of item.profile ? [item.profile] : profiles) {
        checkVerdict(where, profile, item.schema, want, item.body, validators, problems, tally);
      }
    });
  }
  return tally;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const profiles = args.profile === 'both' ? PROFILES : [args.profile];
  const validators = {};
  for (const p of PROFILES) validators[p] = loadProfile(args.schemas, p);
  const problems = [];
  if (args.examples) {
    const n = checkExamples(args.examples, profiles, validators, problems);
    console.log(`ajv ${require('ajv/package.json').version}: ${n} example verdicts checked (${profiles.join(', ')})`);
  }
  let bodies = 0;
  for (const dir of args.captured) {
    const t = checkCaptured(dir, profiles, validators, problems);
    bodies += t.bodies;
    console.log(
      `ajv: ${t.bodies} captured bodies in ${dir}: ${t.verdicts} verdicts (${t.valid} valid, ${t.invalid} invalid) ` +
        `against ${t.schemas.size} schemas (${profiles.join(', ')}); ${t.unmapped} with no schema for the status`
    );
  }
  if (args.captured.length && bodies < args.minBodies) {
    problems.push(`only ${bodies} captured bodies, expected at least ${args.minBodies}`);
  }
  for (const p of problems) console.error(`DISAGREE ${p}`);
  if (problems.length) {
    console.error(`ajv_check: ${problems.length} disagreement(s)`);
    process.exit(1);
  }
  console.log('ajv_check: ajv agrees with the checker on every verdict');
}

main();
