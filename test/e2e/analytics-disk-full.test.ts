// A disk that fills during an analytics list export (`analytics feedback -o`, `analytics views -o`):
// the same handling as `searches list` (searches-disk-full.test.ts), now that both run through one
// list-export engine. The file is cut back to its last whole row, a JSON document is closed with
// where to carry on, the command says "disk full" and prints the command that carries on, and that
// command, run once space is freed, completes the data. On a real 1 MB tmpfs, filled up to just past
// the first page.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageTraffic, ViewsPage } from '../../src/api/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { resumeLine, runCli, runPrintedCommand, tempDir } from '../helpers/cli.js';
import { CAN_MOUNT_TMPFS, TMPFS_SKIP_NOTE } from '../helpers/tmpfs.js';

const PAGE_SIZE = 4096;

describe.skipIf(!CAN_MOUNT_TMPFS)(`analytics lists -o on a disk that fills${TMPFS_SKIP_NOTE}`, () => {
  let sb: Sandbox;
  let home: ReturnType<typeof tempDir>;
  let vol: string;
  beforeAll(async () => {
    sb = await startSandbox({ searchTermCount: 10, analytics: { pages: 400, feedback: 250, conversations: 10 } });
    home = tempDir();
  });
  afterAll(async () => {
    await sb.close();
    home.cleanup();
  });
  beforeEach(() => {
    vol = join(home.path, `vol-${Math.random().toString(36).slice(2)}`);
    mkdirSync(vol);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', vol]).status).toBe(0);
    return () => void spawnSync('umount', ['-l', vol]);
  });

  const env = () => ({
    MINTLIFY_API_URL: sb.baseUrl,
    MINTLIFY_ADMIN_API_KEY: sb.apiKey,
    MINTLIFY_PROJECT_ID: sb.projectId,
    HOME: home.path,
    XDG_CONFIG_HOME: join(home.path, 'xdg'),
  });
  const cli = (args: string[], cwd = vol) => runCli(['analytics', ...args], { cwd, env: env() });

  /** What the CLI writes on a disk with room, into a file of its own (outside the tmpfs). */
  async function written(args: string[]): Promise<string> {
    const dir = tempDir();
    try {
      const r = await cli([...args, '-o', 'out'], dir.path);
      expect(r.code).toBe(0);
      return readFileSync(join(dir.path, 'out'), 'utf8');
    } finally {
      dir.cleanup();
    }
  }

  /** Leaves room for `bytes` (rounded up to whole pages) plus one page. */
  function fillLeaving(bytes: number): void {
    const room = (Math.ceil(bytes / PAGE_SIZE) + 1) * PAGE_SIZE;
    writeFileSync(join(vol, 'filler'), Buffer.alloc(1024 * 1024 - room));
  }

  it('csv (cursor pages): ends with the last whole row, says disk full, and the printed command completes the file', async () => {
    const firstPage = await written(['feedback', '--limit', '100', '--format', 'csv']);
    const everything = await written(['feedback', '--all', '--format', 'csv']);
    fillLeaving(Buffer.byteLength(firstPage));
    const r = await cli(['feedback', '--all', '--format', 'csv', '-o', 'out.csv']);
    expect(r.code).toBe(1);
    expect(readFileSync(join(vol, 'out.csv'), 'utf8')).toBe(firstPage);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.shift()).toBe('fetching feedback entries');
    expect(lines[0]).toBe(
      'warning: stopped after 100 feedback entries (1 page, 2 analytics requests); what was written to out.csv ends with a whole row.',
    );
    expect(lines[2]).toMatch(
      /^  mint-admin analytics feedback --all --format csv --no-header --cursor \S+ >> out\.csv$/,
    );
    expect(lines.at(-1)).toBe(
      'error: disk full while writing out.csv: it holds the 100 feedback entries written before, ending with a whole row; free some space, then carry on with the command above',
    );

    rmSync(join(vol, 'filler'));
    expect((await runPrintedCommand(resumeLine(r.stderr), { cwd: vol, env: env() })).code).toBe(0);
    expect(readFileSync(join(vol, 'out.csv'), 'utf8')).toBe(everything);
  });

  it('json (offset pages): the document is closed and parses, and the printed command writes the rest to a new file', async () => {
    const firstPage = await written(['views', '--limit', '250', '--format', 'json']);
    const all = JSON.parse(await written(['views', '--all', '--format', 'json'])) as ViewsPage;
    fillLeaving(Buffer.byteLength(firstPage));
    const r = await cli(['views', '--all', '--format', 'json', '-o', 'out.json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(readFileSync(join(vol, 'out.json'), 'utf8')) as ViewsPage & { nextOffset: number };
    expect(doc.views).toEqual(all.views.slice(0, 250));
    expect(doc.nextOffset).toBe(250);
    expect(r.stderr).toContain('\n  mint-admin analytics views --all --format json --offset 250 -o out.part2.json\n');
    expect(r.stderr).toMatch(
      /\nerror: disk full while writing out\.json: it holds the 250 pages written before, ending with a whole row; free some space, then carry on with the command above\n$/,
    );

    rmSync(join(vol, 'filler'));
    expect((await runPrintedCommand(resumeLine(r.stderr), { cwd: vol, env: env() })).code).toBe(0);
    const rest = JSON.parse(readFileSync(join(vol, 'out.part2.json'), 'utf8')) as { views: PageTraffic[] };
    expect([...doc.views, ...rest.views]).toEqual(all.views);
  });

  it('a disk full before the first whole page: nothing but the header, and "run the command again"', async () => {
    writeFileSync(join(vol, 'filler'), Buffer.alloc(1024 * 1024 - PAGE_SIZE));
    const r = await cli(['feedback', '--all', '--format', 'csv', '-o', 'out.csv']);
    expect(r.code).toBe(1);
    expect(readFileSync(join(vol, 'out.csv'), 'utf8')).toBe(
      'id,createdAt,source,status,path,comment,helpful,contact,code,filename,lang\r\n',
    );
    expect(r.stderr).toBe(
      'fetching feedback entries\nerror: disk full while writing out.csv: it holds the 0 feedback entries written before, ending with a whole row; free some space, then run the command again\n',
    );
  });
});
