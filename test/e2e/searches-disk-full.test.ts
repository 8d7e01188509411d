// A disk that fills during `searches list -o`: the file is cut back to its last whole row, a JSON
// document is closed with the cursor to carry on from, and the command says "disk full" and prints
// the command that carries on. On a real 1 MB tmpfs, filled up to just past the first page.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchesPage, SearchTerm } from '../../src/api/types.js';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { CAN_MOUNT_TMPFS, TMPFS_SKIP_NOTE } from '../helpers/tmpfs.js';
import { expectedCsv, expectedJson } from '../helpers/searches.js';

const PAGE_SIZE = 4096;

describe.skipIf(!CAN_MOUNT_TMPFS)(`searches list -o on a disk that fills${TMPFS_SKIP_NOTE}`, () => {
  const t = useSandbox({ searchTermCount: 300 });
  let vol: string;
  let terms: SearchTerm[];
  beforeAll(async () => {
    terms = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
      const res = await fetch(`${t.sandbox.baseUrl}/v1/analytics/${t.sandbox.projectId}/searches?${params}`, {
        headers: { authorization: `Bearer ${t.sandbox.apiKey}` },
      });
      const page = (await res.json()) as SearchesPage;
      terms.push(...page.searches);
      cursor = page.nextCursor;
    } while (cursor);
  });
  beforeEach(() => {
    vol = join(t.home, `vol-${Math.random().toString(36).slice(2)}`);
    mkdirSync(vol);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', vol]).status).toBe(0);
    return () => void spawnSync('umount', ['-l', vol]);
  });

  /** Leaves room for `bytes` (rounded up to whole pages) plus one page. */
  function fillLeaving(bytes: number): void {
    const room = (Math.ceil(bytes / PAGE_SIZE) + 1) * PAGE_SIZE;
    writeFileSync(join(vol, 'filler'), Buffer.alloc(1024 * 1024 - room));
  }

  const cli = (args: string[]) =>
    runCli(['searches', 'list', '--all', ...args], {
      cwd: vol,
      env: t.env(),
    });

  it('csv: ends with the last whole row, says disk full, and prints the command that carries on', async () => {
    fillLeaving(Buffer.byteLength(expectedCsv(terms.slice(0, 100))));
    const r = await cli(['--format', 'csv', '-o', 'out.csv']);
    expect(r.code).toBe(1);
    expect(readFileSync(join(vol, 'out.csv'), 'utf8')).toBe(expectedCsv(terms.slice(0, 100)));
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.shift()).toBe('fetching search terms');
    expect(lines[0]).toBe(
      'warning: stopped after 100 terms (1 page); what was written to out.csv ends with a whole row.',
    );
    expect(lines[2]).toMatch(/^  mint-admin searches list --all --format csv --no-header --cursor \S+ >> out\.csv$/);
    expect(lines.at(-1)).toBe(
      'error: disk full while writing out.csv: it holds the 100 terms written before, ending with a whole row; free some space, then carry on with the command above',
    );
  });

  it('json: the document is closed and parses, its nextCursor where to carry on', async () => {
    const firstPage = expectedJson({ searches: terms.slice(0, 100), totalSearches: 0, nextCursor: 'x'.repeat(40) });
    fillLeaving(Buffer.byteLength(firstPage));
    const r = await cli(['--format', 'json', '-o', 'out.json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(readFileSync(join(vol, 'out.json'), 'utf8')) as SearchesPage;
    expect(doc.searches).toEqual(terms.slice(0, 100));
    expect(doc.nextCursor).toEqual(expect.any(String));
    expect(r.stderr).toContain(
      `\n  mint-admin searches list --all --format json --cursor ${doc.nextCursor} -o out.part2.json\n`,
    );
    expect(r.stderr).toMatch(/\nerror: disk full while writing out\.json: /);
  });

  it('a disk full before the first whole page: nothing but the header, and "run the command again"', async () => {
    writeFileSync(join(vol, 'filler'), Buffer.alloc(1024 * 1024 - PAGE_SIZE));
    const r = await cli(['--format', 'csv', '-o', 'out.csv']);
    expect(r.code).toBe(1);
    expect(readFileSync(join(vol, 'out.csv'), 'utf8')).toBe('searchQuery,hits,ctr,topClickedPage,lastSearchedAt\r\n');
    expect(r.stderr).toBe(
      'fetching search terms\nerror: disk full while writing out.csv: it holds the 0 terms written before, ending with a whole row; free some space, then run the command again\n',
    );
  });
});
