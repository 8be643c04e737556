// Preloaded into the platform CLI by sf_cli.test.mjs (NODE_OPTIONS=--require):
// refuses, and writes to $NETWORK_GUARD_LOG, every DNS lookup of a name that
// is not loopback and every connection to an address that is not, so a test
// run can never reach a real org or a registry. The CLI tries the real login
// hosts when a JWT grant is refused, and its plugins phone home unless told
// not to; the test fails when this log is not empty.
'use strict';
const dns = require('node:dns');
const fs = require('node:fs');
const net = require('node:net');
const util = require('node:util');

const LOG = process.env.NETWORK_GUARD_LOG;
const loopback = (h) => !h || h === 'localhost' || /^127\./.test(h) || h === '::1' || h === '[::1]';

function note(what, host) {
  if (!LOG) return;
  try {
    fs.appendFileSync(LOG, `${what} ${host} (sf ${process.argv.slice(2).join(' ')})\n`);
  } catch {
    // the log's folder is gone: the test has finished
  }
}
const refused = (host) =>
  Object.assign(new Error(`network guard: no lookup of ${host}`), { code: 'ENOTFOUND', hostname: host });

const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, options, callback) {
  if (typeof options === 'function') [callback, options] = [options, {}];
  if (!loopback(host)) {
    note('lookup', host);
    return process.nextTick(callback, refused(host));
  }
  return lookup.call(dns, host, options, callback);
};
// util.promisify(dns.lookup) must keep resolving to {address, family}: the
// CLI's domain check reads it, and a bare string makes it store the login URL
// as the instance.
dns.lookup[util.promisify.custom] = (host, options) =>
  new Promise((resolve, reject) =>
    dns.lookup(host, options ?? {}, (e, address, family) =>
      e ? reject(e) : resolve(options && options.all ? address : { address, family })));
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = async (host, options) => {
  if (!loopback(host)) {
    note('lookup', host);
    throw refused(host);
  }
  return promisesLookup.call(dns.promises, host, options);
};
for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveCname', 'resolveAny']) {
  const original = dns[name];
  dns[name] = function guardedResolve(host, ...rest) {
    if (!loopback(host)) {
      note(name, host);
      return process.nextTick(rest[rest.length - 1], refused(host));
    }
    return original.call(dns, host, ...rest);
  };
}
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const o = typeof args[0] === 'object' && !Array.isArray(args[0]) ? args[0] : { host: args[1] };
  if (o && o.host && net.isIP(o.host) && !loopback(o.host)) {
    note('connect', o.host);
    throw new Error(`network guard: no connection to ${o.host}`);
  }
  return connect.apply(this, args);
};
