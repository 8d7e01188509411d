// Preloaded with `node --import` into the built CLI: records the size of V8's young generation (new
// space) when the process starts and the largest it reached, into the file named by
// MINT_ADMIN_RECORD_HEAP, as JSON. Sampled every few ms on an unref'd timer, so the run is unchanged.
// A preload also runs in each worker thread, which has a heap of its own: a worker's figures go to
// the same name with `.worker` added.
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { isMainThread, resourceLimits } from 'node:worker_threads';

const file = process.env.MINT_ADMIN_RECORD_HEAP && `${process.env.MINT_ADMIN_RECORD_HEAP}${isMainThread ? '' : '.worker'}`;
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
const start = newSpace();
let max = start;
const record = () => {
  // A worker's limit as it was created with (resourceLimits), 0 when none was set.
  if (file) writeFileSync(file, JSON.stringify({ start, max, limitMb: resourceLimits.maxYoungGenerationSizeMb ?? 0 }));
};
// A worker may be ended (terminate()) without an 'exit' of its own: it records as it goes.
if (!isMainThread) record();
setInterval(() => {
  const now = newSpace();
  if (now <= max) return;
  max = now;
  if (!isMainThread) record();
}, 5).unref();
process.on('exit', () => {
  max = Math.max(max, newSpace());
  record();
});
