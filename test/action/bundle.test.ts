// A workflow runs action/dist/index.cjs as committed at the ref it names, with no build step, so the
// committed bundle must be exactly what the sources build today.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { buildAction } from '../../scripts/build-action.mjs';

it('the committed action bundle is a fresh build of the source, byte for byte', async () => {
  const fresh = Buffer.from((await buildAction({ write: false })) as Uint8Array);
  const committed = readFileSync(new URL('../../action/dist/index.cjs', import.meta.url));
  expect(
    committed.equals(fresh),
    'action/dist/index.cjs is stale against action/src and src/: run `npm run build:action` and commit the result',
  ).toBe(true);
  // Lean: no inline source map, and under a budget that catches a second copy of a large dependency.
  expect(committed.includes('sourceMappingURL')).toBe(false);
  expect(committed.length).toBeLessThan(2_000_000);
});
