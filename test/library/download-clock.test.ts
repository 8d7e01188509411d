// downloadBundle keeps the AdminClient's clock: a script (or a test) that gives the client a clock
// gets a download that reads the same time, for the mtimes it clamps ("in the future" is in the
// future of that clock) and the age of what an earlier run left beside the target. Against a loopback
// server answering the bundle link and serving the archive.
import { existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, downloadBundle, type DownloadEvent } from '../../src/index.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/server.js';
import { serveArchive } from '../helpers/storage.js';
import { rawTarGz } from '../helpers/tar-evil.js';

const JOB = 'se_3f9a2c1b8e7d4a06';
/** The client's now: years before the machine's, so "the future" differs between the two. */
const CLIENT_NOW = Date.UTC(2011, 4, 6, 7, 8, 9);
/** After the client's now, long before the machine's. */
const LATER = Date.UTC(2015, 0, 1);
const EARLIER = Date.UTC(2010, 0, 1);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setUp() {
  const archive = rawTarGz([
    { type: 'file', path: 'index.html', content: 'i', mtime: LATER },
    { type: 'file', path: 'old.html', content: 'o', mtime: EARLIER },
  ]);
  const server = await startServer({
    [`POST /v1/static-export/jobs/${JOB}/bundle`]: (req, res) =>
      json(200, {
        jobId: JOB,
        bundleUrl: `http://${req.headers.host}/storage/site.tar.gz`,
        sizeBytes: archive.length,
        expiresAt: '2099-01-01T00:00:00.000Z',
      })(req, res),
    'GET /storage/site.tar.gz': serveArchive(() => archive),
  });
  const client = new AdminClient({
    apiKey: 'mint_0123456789abcdef',
    baseUrl: server.url,
    clock: new FakeClock(CLIENT_NOW),
    retry: { attempts: 1 },
  });
  const dir = tempDir();
  cleanups.push(
    () => client.close(),
    () => server.close(),
    dir.cleanup,
  );
  return { client, root: dir.path };
}

describe("downloadBundle reads the client's clock", () => {
  it("clamps an mtime in the future of the client's clock to that clock's now, not the machine's", async () => {
    const { client, root } = await setUp();
    const target = join(root, 'site');
    await downloadBundle({ client, jobId: JOB, target });
    expect(statSync(join(target, 'index.html')).mtimeMs).toBe(CLIENT_NOW);
    expect(statSync(join(target, 'old.html')).mtimeMs).toBe(EARLIER);
  });

  it("judges a leftover's age by the client's clock: an archive staged an hour before its now is not stale", async () => {
    const { client, root } = await setUp();
    const staged = join(root, '.site.tar.gz.mint-admin-0123abcd.partial');
    writeFileSync(staged, 'partial');
    const anHourBefore = new Date(CLIENT_NOW - 3_600_000);
    utimesSync(staged, anHourBefore, anHourBefore);
    const events: DownloadEvent[] = [];
    await downloadBundle({ client, jobId: JOB, target: join(root, 'site'), onEvent: (e) => events.push(e) });
    expect(existsSync(staged)).toBe(true);
    expect(JSON.stringify(events)).not.toContain('mint-admin-0123abcd');
  });
});
