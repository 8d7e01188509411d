import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { rawTarGz, type RawEntry } from '../helpers/tar-evil.js';
import { signalMidDownload, useExportSandbox } from './export-helpers.js';

const t = useExportSandbox();
const FAST = ['--interval', '100ms'];

/** Every regular file under `dir`, by path relative to it. */
function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path).split('\\').join('/'), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

/** A non-empty directory standing where the site should go, to see it left alone or replaced. */
function occupied(path: string): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'keep-me.txt'), 'the old site');
  return path;
}

/** The signature of every link the sandbox's storage was asked for: none may appear in output. */
function signatures(): string[] {
  return t.sandbox.requests
    .filter((r) => r.origin === 'storage')
    .map((r) => new URL(r.path, 'http://x').searchParams.get('X-Amz-Signature'))
    .filter((s): s is string => Boolean(s));
}

function expectNoLink(output: string): void {
  expect(output).not.toContain(t.sandbox.storageUrl);
  for (const sig of signatures()) expect(output).not.toContain(sig);
}

afterAll(() => {
  // Over every test in this file: the storage origin never saw the admin key.
  const storage = t.sandbox.requests.filter((r) => r.origin === 'storage');
  expect(storage.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
});

describe('export run', () => {
  it("starts, waits, downloads and extracts: the files are the bundle's, byte for byte", async () => {
    const out = join(t.dir, 'site');
    const r = await t.cli(['export', 'run', 'https://docs.example.com/', '-o', out, ...FAST]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${resolve(out)}\n`);
    const expected = await t.sandbox.bundleFiles();
    const got = readTree(out);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, content] of expected) expect(got.get(path)?.equals(content), path).toBe(true);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('note: using the hostname docs.example.com (from "https://docs.example.com/")');
    expect(lines.at(-2)).toMatch(new RegExp(`^Extracted ${expected.size} files \\(\\d+\\.\\d KB\\) into ${out}$`));
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^Done: \\d+ pages of docs\\.example\\.com exported; ${expected.size} files \\(\\d+\\.\\d KB\\) in ${out}$`,
      ),
    );
    expect(readdirSync(t.dir)).toEqual(['site']);
    expectNoLink(r.stdout + r.stderr);
  });

  it('--json prints one document: the download summary with the page count', async () => {
    const out = join(t.dir, 'site');
    const r = await t.cli(['export', 'run', 'docs.example.com', '-o', out, ...FAST, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(Object.keys(summary)).toEqual(['jobId', 'directory', 'files', 'bytes', 'bundle', 'pages']);
    expect(Object.keys(summary.bundle)).toEqual(['sizeBytes', 'expiresAt']);
    expect(summary).toMatchObject({ directory: resolve(out), files: (await t.sandbox.bundleFiles()).size });
    expectNoLink(r.stdout + r.stderr);
  });

  it.each([
    ['no Enterprise plan', 'noplan.example.com', [], 3, /^error: static export needs an Enterprise plan \(403: /],
    ['a failed export', 'fail.example.com', [], 4, /^error: export se_\w+ failed: Rendering fail\.example\.com failed/],
    [
      'a timeout',
      'docs.example.com',
      ['--timeout', '1s'],
      5,
      /resume with `mint-admin export download se_\w+ -o \S+ --wait`$/,
    ],
    ['a rate limit on start', 'docs.example.com', [], 6, /^error: rate limited by the API/],
  ])('keeps the exit code of each stage: %s', async (name, domain, extra, code, message) => {
    if (name === 'a timeout') t.sandbox.faults.exportPollsToFinish = 10_000;
    if (name === 'a rate limit on start')
      t.sandbox.faults.inject({ route: 'export.start', status: 429, retryAfter: 3600 });
    const out = join(t.dir, 'site');
    const r = await t.cli(['export', 'run', domain, '-o', out, ...FAST, ...(extra as string[])]);
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(message);
    expect(readdirSync(t.dir)).toEqual([]);
  });

  it.each([
    ['an invalid domain', ['docs.example.com:8080']],
    ['a bad --timeout', ['docs.example.com', '--timeout', 'forever']],
    ['a non-empty target', ['docs.example.com']],
  ])('checks %s before sending anything: exit 2', async (name, args) => {
    const out = join(t.dir, 'site');
    if (name === 'a non-empty target') occupied(out);
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'run', ...args, '-o', out, ...FAST]);
    expect(r.code).toBe(2);
    expect(seen.list).toEqual([]);
  });
});

describe('export download', () => {
  it('--json prints exactly { jobId, directory, files, bytes, bundle: { sizeBytes, expiresAt } }', async () => {
    const id = await t.exportJob();
    const out = join(t.dir, 'site');
    const r = await t.cli(['export', 'download', id, '-o', out, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(Object.keys(summary)).toEqual(['jobId', 'directory', 'files', 'bytes', 'bundle']);
    expect(Object.keys(summary.bundle)).toEqual(['sizeBytes', 'expiresAt']);
    expect(summary).toMatchObject({ jobId: id, directory: resolve(out), files: (await t.sandbox.bundleFiles()).size });
    expectNoLink(r.stdout + r.stderr);
  });

  it('the built CLI extracts on its own thread, a finished job or one it waits for, and starts no worker', async () => {
    const id = await t.exportJob();
    const out = join(t.dir, 'site');
    const r = await t.cli(['--debug', 'export', 'download', id, '-o', out], { subprocess: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/worker/);
    expect(readTree(out)).toEqual(await t.sandbox.bundleFiles());
    const queued = await t.exportJob('docs.example.com', false);
    const waited = await t.cli(
      ['--debug', 'export', 'download', queued, '-o', join(t.dir, 'waited'), '--wait', ...FAST],
      { subprocess: true },
    );
    expect(waited.code, waited.stderr).toBe(0);
    expect(readTree(join(t.dir, 'waited'))).toEqual(await t.sandbox.bundleFiles());
  });

  it('gets a fresh link when the first one has already expired', async () => {
    const id = await t.exportJob();
    t.sandbox.faults.expireNextLinks(1);
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'download', id, '-o', join(t.dir, 'site')]);
    expect(r.code).toBe(0);
    expect(seen.list.filter((q) => q.path.endsWith('/bundle')).length).toBe(2);
    expect(readTree(join(t.dir, 'site')).size).toBe((await t.sandbox.bundleFiles()).size);
  });

  it('never sends the admin key to the storage origin, not on a refreshed link nor on a resumed download', async () => {
    const id = await t.exportJob();
    t.sandbox.faults.expireNextLinks(1);
    t.sandbox.faults.truncateDownloadAt(5000);
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'download', id, '-o', join(t.dir, 'site'), '--debug']);
    expect(r.code).toBe(0);
    const storage = seen.list.filter((q) => q.origin === 'storage');
    expect(storage.length).toBeGreaterThanOrEqual(3);
    expect(storage.map((q) => q.headers.authorization)).toEqual(storage.map(() => undefined));
    expect(r.stderr).not.toContain(t.sandbox.apiKey);
    // --debug logs the link, but only redacted.
    expect(r.stderr).toContain('X-Amz-Signature=REDACTED');
    for (const sig of signatures()) expect(r.stdout + r.stderr).not.toContain(sig);
  });

  it('resumes a download cut short and still extracts every file', async () => {
    const id = await t.exportJob();
    t.sandbox.faults.truncateDownloadAt(10_000);
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'download', id, '-o', join(t.dir, 'site')]);
    expect(r.code).toBe(0);
    expect(seen.list.filter((q) => q.origin === 'storage').length).toBeGreaterThanOrEqual(2);
    const expected = await t.sandbox.bundleFiles();
    const got = readTree(join(t.dir, 'site'));
    for (const [path, content] of expected) expect(got.get(path)?.equals(content), path).toBe(true);
  });

  it('refuses a non-empty target without --force (exit 2, nothing sent) and replaces it with --force', async () => {
    const id = await t.exportJob();
    const out = occupied(join(t.dir, 'site'));
    const seen = t.watchRequests();
    const refused = await t.cli(['export', 'download', id, '-o', out]);
    expect(refused.code).toBe(2);
    expect(seen.list).toEqual([]);
    expect(readTree(out)).toEqual(new Map([['keep-me.txt', Buffer.from('the old site')]]));
    const forced = await t.cli(['export', 'download', id, '-o', out, '--force']);
    expect(forced.code).toBe(0);
    const got = readTree(out);
    expect(got.has('keep-me.txt')).toBe(false);
    expect(got.size).toBe((await t.sandbox.bundleFiles()).size);
    expect(readdirSync(t.dir)).toEqual(['site']);
  });

  it('keeps the archive with --archive', async () => {
    const id = await t.exportJob();
    const archive = join(t.dir, 'site.tar.gz');
    const r = await t.cli(['export', 'download', id, '-o', join(t.dir, 'site'), '--archive', archive]);
    expect(r.code).toBe(0);
    expect(readFileSync(archive).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('before the job completes: says to add --wait (exit 1); with --wait, waits and downloads', async () => {
    const id = await t.exportJob('docs.example.com', false);
    const out = join(t.dir, 'site');
    const early = await t.cli(['export', 'download', id, '-o', out]);
    expect(early.code).toBe(1);
    expect(early.stderr).toBe(
      `Static export: the jobs flow (the job id looks like a jobs-flow id)\nerror: job ${id} not finished yet (409: Job ${id} is queued; wait until its status is completed); add --wait to wait for it and then download, or wait with \`mint-admin export status ${id} --wait\`\n`,
    );
    const waited = await t.cli(['export', 'download', id, '-o', out, '--wait', ...FAST]);
    expect(waited.code).toBe(0);
    expect(waited.stderr).toContain(`Exported `);
    expect(readTree(out).size).toBe((await t.sandbox.bundleFiles()).size);
  });

  it('--wait on a job that fails exits 4 and creates nothing', async () => {
    const id = await t.exportJob('fail.example.com', false);
    const r = await t.cli(['export', 'download', id, '-o', join(t.dir, 'site'), '--wait', ...FAST]);
    expect(r.code).toBe(4);
    expect(readdirSync(t.dir)).toEqual([]);
  });

  it.each([
    ['with no site there yet', false],
    ['over an existing site with --force', true],
  ])('Ctrl-C mid-download %s: exit 130, the target as it was, no temp files beside it', async (_n, existing) => {
    const id = await t.exportJob();
    const out = join(t.dir, 'site');
    if (existing) occupied(out);
    t.sandbox.faults.throttleBytesPerSecond = 10_000;
    const before = readdirSync(t.dir);
    const r = await t.cli(['export', 'download', id, '-o', out, ...(existing ? ['--force'] : [])], {
      onSpawn: signalMidDownload(out, 'SIGINT'),
    });
    expect(r.code).toBe(130);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: interrupted: the partial download was removed and ${out} is as it was; export ${id} stays on the server: download it with \`mint-admin export download ${id} -o ${out}${existing ? ' --force' : ''}\``,
    );
    expect(readdirSync(t.dir)).toEqual(before);
    if (existing) expect(readTree(out)).toEqual(new Map([['keep-me.txt', Buffer.from('the old site')]]));
    else expect(existsSync(out)).toBe(false);
  });

  it.each<[string, RawEntry[]]>([
    [
      'a parent-directory path',
      [
        { type: 'file', path: 'index.html', content: '<p>ok</p>' },
        { type: 'file', path: '../escaped.txt', content: 'pwned' },
      ],
    ],
    ['an absolute path', [{ type: 'file', path: '/tmp/mint-admin-evil-abs.txt', content: 'pwned' }]],
    [
      'a symlink out of the tree, then a file through it',
      [
        { type: 'symlink', path: 'link', target: '../..' },
        { type: 'file', path: 'link/escaped.txt', content: 'pwned' },
      ],
    ],
    ['a hard link to a file outside', [{ type: 'hardlink', path: 'passwd', target: '/etc/passwd' }]],
  ])('refuses an archive with %s: exit 1, nothing written anywhere, the target untouched', async (_n, entries) => {
    const id = await t.exportJob();
    const out = occupied(join(t.dir, 'site'));
    t.sandbox.setBundleArchive(rawTarGz(entries));
    const before = readdirSync(t.dir);
    const r = await t.cli(['export', 'download', id, '-o', out, '--force']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^error: the bundle was refused, nothing was installed: entry "/,
    );
    expect(readdirSync(t.dir)).toEqual(before);
    expect(readTree(out)).toEqual(new Map([['keep-me.txt', Buffer.from('the old site')]]));
    expect(readdirSync(join(t.dir, '..')).sort()).toEqual(
      ['work', 'xdg'].filter((d) => existsSync(join(t.dir, '..', d))).sort(),
    );
    expect(existsSync('/tmp/mint-admin-evil-abs.txt')).toBe(false);
  });
});

describe('export download of a decompression bomb', () => {
  // Zeros, not even a tar (`head -c 1G /dev/zero | gzip` at a 16th of the size): the CLI extracts in
  // its worker thread, whose late answers after standing down crashed the download and left the
  // work directory behind; then tar's keeping of everything after the end of the archive hung it.
  it('refuses it as a bomb: exit 1, the target untouched, nothing left beside it', async () => {
    const id = await t.exportJob();
    const out = occupied(join(t.dir, 'site'));
    t.sandbox.setBundleArchive(gzipSync(Buffer.alloc(64 << 20)));
    const before = readdirSync(t.dir);
    const r = await t.cli(['export', 'download', id, '-o', out, '--force'], { subprocess: true });
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^error: the bundle was refused, nothing was installed: it expands more than 1000 times its compressed size \(.*\), as only a decompression bomb does; export /,
    );
    expect(r.code).toBe(1);
    expect(readdirSync(t.dir)).toEqual(before);
    expect(readTree(out)).toEqual(new Map([['keep-me.txt', Buffer.from('the old site')]]));
  });
});

describe('export run, interrupted while waiting', () => {
  it('exits 130 saying the export keeps running, with the command that picks it up, and creates nothing', async () => {
    t.sandbox.faults.exportPollsToFinish = 10_000;
    const out = join(t.dir, 'site');
    let jobId = '';
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'run', 'docs.example.com', '-o', out, ...FAST], {
      onSpawn: (child) => {
        const timer = setInterval(() => {
          const poll = seen.list.find((q) => q.method === 'GET' && q.path.startsWith('/v1/static-export/jobs/'));
          if (poll) {
            jobId = poll.path.split('/').pop()!;
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20);
        child.on('close', () => clearInterval(timer));
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: interrupted: stopped waiting, but export ${jobId} keeps running on the server; resume with \`mint-admin export download ${jobId} -o ${out} --wait\``,
    );
    expect(readdirSync(t.dir)).toEqual([]);
  });
});
