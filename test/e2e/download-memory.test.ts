// A download allocates without end (network chunks, tar's per-entry objects, inflated data), and V8
// doubles its young generation each time enough survives its scavenges: on a long enough download,
// from its starting size up to 32 MB, which was most of the peak RSS growth from a 50 MB to a 500 MB
// bundle (issue 16). The CLI keeps it at the size it has when the download starts
// (src/download/heap.ts). The bench (bench/download.mjs, part 2) measures the RSS; this checks the
// mechanism on the built CLI: the young generation is as large after a 20 MB bundle as after a 2 MB one.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf } from '../helpers/cli.js';
import { useSandbox, type SandboxFixture } from '../helpers/sandbox.js';

const recorder = new URL('../helpers/record-heap.mjs', import.meta.url).pathname;
const small = useSandbox({ bundle: { files: 100, bytesPerFile: 30_000 }, seed: 5 });
const large = useSandbox({ bundle: { files: 1_200, bytesPerFile: 30_000 }, seed: 5 });

/** Downloads the fixture's bundle with the built CLI; the largest young generation it had, in bytes. */
async function youngGenerationOfDownload(fixture: SandboxFixture, name: string): Promise<number> {
  fixture.sandbox.faults.exportPollsToFinish = 0;
  const { jobId } = await fixture.api<{ jobId: string }>('POST', '/v1/static-export/jobs', { domain: 'docs.example.com' });
  const record = join(fixture.home, `${name}.json`);
  const env = cliEnv({ ...fixture.env(), MINT_ADMIN_RECORD_HEAP: record });
  const args = ['--import', recorder, CLI, '--quiet', 'export', 'download', jobId, '-o', join(fixture.home, name), '--wait'];
  const r = await outputOf(spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] }));
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  return (JSON.parse(readFileSync(record, 'utf8')) as { max: number }).max;
}

describe('memory during a download', () => {
  it('the young generation does not grow with the bundle (2 MB and 20 MB: the same size)', async () => {
    const afterSmall = await youngGenerationOfDownload(small, 'small');
    const afterLarge = await youngGenerationOfDownload(large, 'large');
    expect(afterSmall).toBeGreaterThan(0);
    // Without the fix the 20 MB bundle ends with twice the young generation of the 2 MB one (8 vs 4 MB).
    expect(afterLarge).toBe(afterSmall);
  }, 60_000);
});
