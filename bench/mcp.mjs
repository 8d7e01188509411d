// The MCP server (issue 33), in a clean environment (measure.mjs), interleaved, median (min-max):
// - start-up: spawning `mint-admin mcp` until its answer to `initialize` arrives, vs a whole run of
//   `node -e 0` (target 1.5x);
// - a read-only tool's round trip (analytics_views, one page of 50) over the server's stdio, vs a bare
//   fetch of the same endpoint from this process with a warm connection (target 1.2x), on loopback and
//   with the sandbox answering 20 ms and 80 ms late (users call a remote API, not loopback).
// The sandbox answers both, on loopback in this process. Prints table rows, raw runs and PASS/MISS.
// Beside the start-up, the SDK's own floor (bench/mcp-sdk-floor/): the SDK's minimal stdio server (one
// tool), bundled as the CLI is and started with Node's compile cache as the CLI is, timed by the same
// client in the same interleaved loop: how far above what the SDK itself allows `mint-admin mcp` is.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSdkFloor } from './mcp-sdk-floor/build.mjs';
import { cleanEnv, describeEnv, interleaved, median, ms, rawLine, spread, timeRun } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = /** @type {typeof import('../src/sandbox/index.js')} */ (
  await import(join(root, 'dist/sandbox/index.js'))
);
const CLI = join(root, 'dist/cli/main.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === '1' ? 5 : 30));
const work = mkdtempSync(join(tmpdir(), 'mint-admin-bench-mcp-'));
const sandbox = await startSandbox({});
const env = {
  MINTLIFY_API_URL: sandbox.baseUrl,
  MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
  MINTLIFY_PROJECT_ID: sandbox.projectId,
  XDG_CONFIG_HOME: join(work, 'xdg'),
};
const floor = await buildSdkFloor(join(work, 'sdk-floor'));
const LAUNCH = join(root, 'bench/mcp-sdk-floor/launch.cjs');
// Each server as the bench starts it: the command line after `node`.
const SERVERS = {
  mcp: [CLI, 'mcp'],
  floor: [LAUNCH, floor],
};
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};

/** @typedef {{ jsonrpc: string; id?: number; method: string; params?: unknown }} Request */
/** The server's JSON-RPC answer, as far as the bench reads it. */
/** @typedef {{ id: number; result?: { isError?: boolean; content: Array<{ text: string }> } }} Answer */

/**
 * A server process, and a way to send one request and get its answer (newline-delimited JSON-RPC).
 * @param {string[]} [args]
 */
function startServer(args = SERVERS.mcp) {
  const child = spawn(process.execPath, args, { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'ignore'] });
  /** @type {Map<number | undefined, (answer: Answer) => void>} */
  const waiting = new Map();
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const message = /** @type {Answer} */ (JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
      waiting.get(message.id)?.(message);
    }
  });
  const request = (/** @type {Request} */ message) =>
    /** @type {Promise<Answer>} */ (
      new Promise((resolve) => {
        waiting.set(message.id, resolve);
        child.stdin.write(`${JSON.stringify(message)}\n`);
      })
    );
  const stop = () => new Promise((resolve) => (child.on('close', resolve), child.stdin.end()));
  return { request, stop };
}

/**
 * Spawn to the answer of initialize, and to the answer of the tools/list a client sends next.
 * @param {string[]} args
 */
async function startup(args) {
  const started = process.hrtime.bigint();
  const server = startServer(args);
  await server.request(INITIALIZE);
  const initialized = Number(process.hrtime.bigint() - started) / 1e6;
  server.request({ jsonrpc: '2.0', method: 'notifications/initialized' }).catch(() => undefined);
  await server.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const listed = Number(process.hrtime.bigint() - started) / 1e6;
  await server.stop();
  return { initialized, listed };
}
/**
 * A side of the interleaved loop for one server: returns ms to initialize, keeps ms to tools/list.
 * @param {string[]} args
 */
function startupSide(args) {
  /** @type {number[]} */
  const listed = [];
  const side = async () => {
    const times = await startup(args);
    listed.push(times.listed);
    return times.initialized;
  };
  return { side, listed };
}

/** @type {string[]} */
const rows = [];
/** @type {string[]} */
const raw = [];
/** @type {Array<[string, boolean]>} */
const checks = [];
try {
  const sides = { mcp: startupSide(SERVERS.mcp), floor: startupSide(SERVERS.floor) };
  // Warm the file cache and Node's compile cache.
  for (let i = 0; i < 3; i++) for (const { side } of Object.values(sides)) await side();
  for (const { listed } of Object.values(sides)) listed.length = 0;
  // `config path` beside them: what any command that loads the program costs, for context.
  const [base, command, ours, floorInit] = await interleaved(RUNS, [
    () => timeRun(process.execPath, ['-e', '0'], env),
    () => timeRun(process.execPath, [CLI, 'config', 'path'], env),
    sides.mcp.side,
    sides.floor.side,
  ]);
  const toolsListed = sides.mcp.listed;
  const x = (/** @type {number[]} */ xs) => `${(median(xs) / median(base)).toFixed(2)}x`;
  const ratio = median(ours) / median(base);
  // The third column: the SDK's own minimal server, and mint-admin's figure over it.
  const overFloor = (/** @type {number[]} */ xs, /** @type {number[]} */ floorXs) =>
    `${spread(floorXs, ms)}: ${x(floorXs)}; mint-admin ${(median(xs) / median(floorXs)).toFixed(2)}x it`;
  rows.push(
    `| MCP start-up to \`initialize\` answered | ${spread(ours, ms)} | ${spread(base, ms)} (\`node -e 0\`) | ${ratio.toFixed(2)}x | ${overFloor(ours, floorInit)} |`,
  );
  // What a client waits for before it can call a tool is the answer to the tools/list it sends next.
  rows.push(
    `| MCP start-up to \`tools/list\` answered (the next request) | ${spread(toolsListed, ms)} | ${spread(base, ms)} (\`node -e 0\`) | ${x(toolsListed)} | ${overFloor(toolsListed, sides.floor.listed)} |`,
  );
  rows.push(
    `| (context) \`config path\`, a whole run | ${spread(command, ms)} | ${spread(base, ms)} (\`node -e 0\`) | ${x(command)} | |`,
  );
  raw.push(
    rawLine('MCP start-up to initialize', {
      'mint-admin mcp': ours,
      'to tools/list': toolsListed,
      'config path': command,
      'node -e 0': base,
      'SDK floor': floorInit,
      'SDK floor to tools/list': sides.floor.listed,
    }),
  );
  checks.push([`MCP start-up <= 1.5x bare node (${ratio.toFixed(2)}x)`, ratio <= 1.5]);
  checks.push([
    `MCP start-up to tools/list <= 2.5x bare node (${x(toolsListed)})`,
    median(toolsListed) / median(base) <= 2.5,
  ]);

  const server = startServer();
  await server.request(INITIALIZE);
  server.request({ jsonrpc: '2.0', method: 'notifications/initialized' }).catch(() => undefined);
  let id = 1;
  const toolCall = async () => {
    const started = process.hrtime.bigint();
    const answer = await server.request({
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'analytics_views', arguments: { limit: 50 } },
    });
    if (answer.result?.isError) throw new Error(answer.result.content[0]?.text);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const url = `${sandbox.baseUrl}/v1/analytics/${sandbox.projectId}/views?limit=50`;
  const bareFetch = async () => {
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    JSON.stringify(await res.json(), null, 2);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (let i = 0; i < 5; i++) await Promise.all([toolCall(), bareFetch()]); // warm both sides' connections and JIT
  for (const latencyMs of [0, 20, 80]) {
    // Every answer of the endpoint that late, for both sides alike.
    sandbox.faults.reset();
    if (latencyMs > 0)
      sandbox.faults.inject({ route: 'views.list', delayMs: latencyMs, times: Number.MAX_SAFE_INTEGER });
    const [fetched, called] = await interleaved(latencyMs === 0 ? RUNS * 3 : RUNS, [bareFetch, toolCall]);
    const callRatio = median(called) / median(fetched);
    const where = latencyMs === 0 ? 'loopback' : `API ${latencyMs} ms away`;
    rows.push(
      `| MCP tool round trip (analytics_views, 50 rows), ${where} | ${spread(called, ms)} | ${spread(fetched, ms)} (bare fetch) | ${callRatio.toFixed(2)}x | |`,
    );
    raw.push(rawLine(`MCP tool round trip, ${where}`, { analytics_views: called, 'bare fetch': fetched }));
    checks.push([`MCP tool round trip, ${where}, <= 1.2x a bare fetch (${callRatio.toFixed(2)}x)`, callRatio <= 1.2]);
  }
  sandbox.faults.reset();
  await server.stop();
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `MCP server: start-up to the answer of \`initialize\` vs a whole \`node -e 0\`, and a read-only tool's round trip over stdio vs a bare fetch of the same endpoint from the bench process (warm connections both); median (min-max) of ${RUNS} (start-up) and ${RUNS * 3} (round trip) interleaved runs.`,
);
console.log(describeEnv(['XDG_CONFIG_HOME', 'MINTLIFY_*']));
console.log('');
console.log(
  "The SDK floor: the SDK's own minimal stdio server (bench/mcp-sdk-floor/server.mjs: McpServer, StdioServerTransport, one tool), bundled as dist/cli is and started with Node's compile cache (its ratio to `node -e 0`, and mint-admin's to it).",
);
console.log('');
console.log('| figure | mint-admin | baseline | ratio | SDK floor |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log('');
for (const line of raw) console.log(line);
for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'} ${text}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
