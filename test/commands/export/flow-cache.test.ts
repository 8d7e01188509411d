// The export flow cache on real files in a temp config directory.
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFlowCache } from '../../../src/export-flows/flow-cache.js';
import { tempDir } from '../../helpers/cli.js';

const BASE = 'https://api.mintlify.com';
let home: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let file: string;

beforeEach(() => {
  home = tempDir();
  env = { HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'xdg') };
  file = join(home.path, 'xdg', 'mint-admin', 'export-flows.json');
});
afterEach(() => home.cleanup());

describe('export flow cache', () => {
  it("remembers the start flow per base URL and each job's flow, in a 0600 file a new process reads back", async () => {
    const cache = openFlowCache(env);
    expect(await cache.startFlow(BASE)).toBeUndefined();
    await cache.remember(BASE, { startFlow: 'project', jobId: 'abc', jobFlow: 'project' });
    await cache.remember('http://127.0.0.1:1', { startFlow: 'jobs' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home.path, 'xdg', 'mint-admin')).mode & 0o777).toBe(0o700);
    const again = openFlowCache(env);
    expect(await again.startFlow(BASE)).toBe('project');
    expect(await again.jobFlow(BASE, 'abc')).toBe('project');
    expect(await again.jobFlow(BASE, 'toString')).toBeUndefined();
    expect(await again.startFlow('http://127.0.0.1:1')).toBe('jobs');
  });

  it('keeps the newest 200 jobs per base URL', async () => {
    const cache = openFlowCache(env);
    for (let i = 0; i < 205; i++) await cache.remember(BASE, { jobId: `job${i}`, jobFlow: 'jobs' });
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    const ids = Object.keys(saved.bases[BASE].jobs);
    expect(ids).toHaveLength(200);
    expect(ids[0]).toBe('job5');
    expect(ids.at(-1)).toBe('job204');
  });

  it.each([
    ['not JSON', '{'],
    ['another version', JSON.stringify({ version: 2, bases: { [BASE]: { flow: 'jobs', jobs: {} } } })],
    [
      'values that are not flows',
      JSON.stringify({ version: 1, bases: { [BASE]: { flow: 'v3', jobs: { a: 'zip' } } } }),
    ],
  ])('reads a file that is %s as empty, and says so in --debug', async (_n, text) => {
    mkdirSync(join(home.path, 'xdg', 'mint-admin'), { recursive: true });
    writeFileSync(file, text);
    const debug: string[] = [];
    const cache = openFlowCache(env, (line) => debug.push(line));
    expect(await cache.startFlow(BASE)).toBeUndefined();
    expect(await cache.jobFlow(BASE, 'a')).toBeUndefined();
    if (text === '{') expect(debug).toEqual([`ignoring the export flow cache ${file}: not valid JSON`]);
  });

  it('does not read through a symlink, and replaces it (not its target) on write', async () => {
    mkdirSync(join(home.path, 'xdg', 'mint-admin'), { recursive: true });
    const elsewhere = join(home.path, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ version: 1, bases: { [BASE]: { flow: 'jobs', jobs: {} } } }));
    symlinkSync(elsewhere, file);
    const debug: string[] = [];
    const cache = openFlowCache(env, (line) => debug.push(line));
    expect(await cache.startFlow(BASE)).toBeUndefined();
    expect(debug).toEqual([`ignoring the export flow cache ${file}: ELOOP`]);
    await cache.remember(BASE, { startFlow: 'project' });
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(elsewhere, 'utf8')).bases[BASE].flow).toBe('jobs');
  });

  it('a write that cannot happen never fails the caller', async () => {
    // The config directory's place is taken by a file: nothing can be written under it.
    writeFileSync(join(home.path, 'xdg'), 'not a directory');
    const debug: string[] = [];
    const cache = openFlowCache(env, (line) => debug.push(line));
    await cache.remember(BASE, { startFlow: 'project' });
    expect(await cache.startFlow(BASE)).toBe('project');
    expect(debug[0]).toBe(`ignoring the export flow cache ${file}: ENOTDIR`);
    expect(debug[1]).toMatch(/^could not remember the export flow in .*export-flows\.json: /);
    expect(debug).toHaveLength(2);
  });
});
