'use strict';
// What the CLI bundle gets for `import ... from 'undici'` (scripts/build.mjs): only the parts
// mint-admin uses. undici's index.js loads every part at once (fetch, WebSocket, caches, mocks,
// HTTP/2: ~110 files, 65-85 ms of a one-request command); these need a fraction of that. The build
// refuses a source that imports any other name from undici, so a new use is added here, not missed.
// `request` is built as undici's index.js builds it (makeDispatcher), so it behaves the same.
const api = require('undici/lib/api/index.js');
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js');
const { InvalidArgumentError } = require('undici/lib/core/errors.js');
const util = require('undici/lib/core/util.js');
const { getGlobalDispatcher } = require('undici/lib/global.js');

Object.assign(Dispatcher.prototype, api);

function makeDispatcher(fn) {
  return (url, opts, handler) => {
    if (typeof opts === 'function') {
      handler = opts;
      opts = null;
    }
    if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
      throw new InvalidArgumentError('invalid url');
    }
    if (opts != null && typeof opts !== 'object') {
      throw new InvalidArgumentError('invalid opts');
    }
    if (opts && opts.path != null) {
      if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
      const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
      url = new URL(util.parseOrigin(url).origin + path);
    } else {
      if (!opts) opts = typeof url === 'object' ? url : {};
      url = util.parseURL(url);
    }
    const { agent, dispatcher = getGlobalDispatcher() } = opts;
    if (agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
    return fn.call(
      dispatcher,
      { ...opts, origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname, method: opts.method || (opts.body ? 'PUT' : 'GET') },
      handler,
    );
  };
}

module.exports.EnvHttpProxyAgent = EnvHttpProxyAgent;
module.exports.request = makeDispatcher(api.request);
