// Stand-in for `mint-admin export download <jobId> -o <dir>` while that command is not on this
// branch: the same engine (dist/download) with the same real dependencies main.ts builds.
//   node bench/download-direct.mjs <jobId> <dir>     (MINTLIFY_API_URL, MINTLIFY_ADMIN_API_KEY set)
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const [jobId, dir] = process.argv.slice(2);
const { MINTLIFY_API_URL: base, MINTLIFY_ADMIN_API_KEY: key } = process.env;
if (!jobId || !dir || !base || !key) {
  console.error('usage: MINTLIFY_API_URL=... MINTLIFY_ADMIN_API_KEY=... node bench/download-direct.mjs <jobId> <dir>');
  process.exit(2);
}

const { createDispatcher } = await import(join(root, 'dist/api/http.js'));
const { systemClock } = await import(join(root, 'dist/clock.js'));
const { createReporter, processIO } = await import(join(root, 'dist/io.js'));
const { downloadBundle } = await import(join(root, 'dist/download/index.js'));

const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('interrupted')));
const dispatcher = createDispatcher(process.env);
try {
  const result = await downloadBundle({
    getBundle: async () => {
      const res = await fetch(`${base}/v1/static-export/jobs/${encodeURIComponent(jobId)}/bundle`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      if (!res.ok) throw new Error(`POST bundle answered ${res.status}`);
      return res.json();
    },
    target: dir,
    force: process.argv.includes('--force'),
    dispatcher,
    clock: systemClock,
    random: Math.random,
    signal: controller.signal,
    reporter: createReporter(processIO(), { json: false, quiet: true, color: false }, systemClock),
    debug: () => undefined,
  });
  process.stdout.write(`${JSON.stringify({ jobId, ...result })}\n`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exitCode = error.exitCode ?? 1;
} finally {
  await dispatcher.close();
}
