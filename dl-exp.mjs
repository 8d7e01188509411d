import * as tar from 'tar';
import { createReadStream } from 'node:fs';
const F = '/tmp/mint-admin-sandbox/bundle-v1-seed1-10000x13000.tar.gz';
const u = tar.x({ cwd: '/tmp/dl-exp', strict: true });
const input = createReadStream(F, { highWaterMark: 1 << 20 });
let n = 0;
u.on('entry', () => { n++; });
for (const ev of ['error', 'close', 'end', 'finish', 'abort']) u.on(ev, (e) => console.log(Date.now() % 100000, ev, e?.message ?? '', 'entries', n));
input.pipe(u);
setTimeout(() => {
  console.log(Date.now() % 100000, 'stopping after', n);
  input.unpipe(u); input.destroy();
  u.end();
}, 800);
