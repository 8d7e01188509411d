// downloadBundle's refusals of its target, as a script meets them: a TargetRefusedError (a UsageError)
// whose reason and paths say what was refused, in words that name none of the CLI's flags or its
// name (a script passes `force: true`, not --force). The target is checked before anything is sent:
// the server here counts requests, and there must be none.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AdminClient,
  downloadBundle,
  TargetRefusedError,
  UsageError,
  type DownloadBundleOptions,
} from '../../src/index.js';
import { FakeClock } from '../helpers/clock.js';
import { startServer } from '../helpers/server.js';

let server: Awaited<ReturnType<typeof startServer>>;
let client: AdminClient;
let root: string;
beforeAll(async () => {
  server = await startServer({});
  client = new AdminClient({
    apiKey: 'mint_0123456789abcdef',
    baseUrl: server.url,
    clock: new FakeClock(),
    retry: { attempts: 1 },
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'lib-target-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const JOB = 'se_3f9a2c1b8e7d4a06';

async function refusal(options: Partial<DownloadBundleOptions> & { target: string }): Promise<TargetRefusedError> {
  const error = await downloadBundle({ client, jobId: JOB, ...options }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TargetRefusedError);
  expect(error).toBeInstanceOf(UsageError);
  const refused = error as TargetRefusedError;
  expect(refused.name).toBe('TargetRefusedError');
  expect(refused.message).not.toContain('--');
  expect(refused.message).not.toContain('mint-admin');
  expect(server.requests).toHaveLength(0);
  return refused;
}

function nonEmpty(path: string): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'index.html'), 'the old site');
  return path;
}

describe('downloadBundle refuses its target before sending anything', () => {
  it('a non-empty directory without force', async () => {
    const target = nonEmpty(join(root, 'site'));
    const error = await refusal({ target });
    expect(error).toMatchObject({ reason: 'not-empty', target, archivePath: undefined, protectedAs: undefined });
    expect(error.message).toBe(`${target} is not empty; allow replacing its contents, or choose another directory`);
  });

  it('the home directory, even with force', async () => {
    const home = nonEmpty(join(root, 'home'));
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const error = await refusal({ target: home, force: true });
      expect(error).toMatchObject({ reason: 'protected', target: home, protectedAs: 'home' });
      expect(error.message).toBe(
        `refusing to replace ${home} (your home directory), even with replacing allowed; name a directory below it, e.g. ${join(home, 'site')}`,
      );
    } finally {
      process.env.HOME = saved;
    }
  });

  it('an archive path inside the target', async () => {
    const target = nonEmpty(join(root, 'site'));
    const archivePath = join(target, 'site.tar.gz');
    const error = await refusal({ target, force: true, archivePath });
    expect(error).toMatchObject({ reason: 'archive-inside', target, archivePath });
    expect(error.message).toBe(
      `the archive path ${archivePath} is inside the directory being replaced; keep the archive somewhere else`,
    );
  });

  it('an archive path that is a directory', async () => {
    const target = join(root, 'site');
    const archivePath = nonEmpty(join(root, 'archives'));
    const error = await refusal({ target, archivePath });
    expect(error).toMatchObject({ reason: 'archive-is-directory', target, archivePath });
  });
});
