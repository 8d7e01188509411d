// Preloaded with `node --import` into the built CLI: records the size of V8's young generation (new
// space) when the process starts and the largest it reached, into the file named by
// MINT_ADMIN_RECORD_HEAP, as JSON. Sampled every few ms on an unref'd timer, so the run is unchanged.
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.MINT_ADMIN_RECORD_HEAP;
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
const start = newSpace();
let max = start;
setInterval(() => (max = Math.max(max, newSpace())), 5).unref();
process.on('exit', () => {
  max = Math.max(max, newSpace());
  if (file) writeFileSync(file, JSON.stringify({ start, max }));
});
