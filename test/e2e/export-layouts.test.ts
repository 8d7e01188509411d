// `export download` against the sandbox, the filesystem as it really is: a SIGKILLed run and the
// next one, the --link layout from the command line, and targets refused before any request.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { CAN_CREATE_OTHER_USER, createOtherUser, OTHER_USER_SKIP_NOTE } from '../helpers/other-user.js';
import { CAN_MOUNT_TMPFS, TMPFS_SKIP_NOTE } from '../helpers/tmpfs.js';
import { rawTarGz } from '../helpers/tar-evil.js';
import { signalMidDownload, useExportSandbox } from './export-helpers.js';

const t = useExportSandbox();

function occupied(path: string): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'keep-me.txt'), 'the old site');
  return path;
}

describe('a run killed outright (SIGKILL) mid-download', () => {
  it('leaves its work directory, which the next run removes, saying so, before installing', async () => {
    const id = await t.exportJob();
    const out = occupied(join(t.dir, 'site'));
    t.sandbox.faults.throttleBytesPerSecond = 10_000;
    const killed = await t.cli(['export', 'download', id, '-o', out, '--force'], {
      onSpawn: signalMidDownload(out, 'SIGKILL'),
    });
    expect(killed.signal).toBe('SIGKILL');
    const left = readdirSync(t.dir).filter((n) => n.startsWith('.site.mint-admin-'));
    expect(left).toHaveLength(1);
    expect(readFileSync(join(out, 'keep-me.txt'), 'utf8')).toBe('the old site');

    t.sandbox.faults.throttleBytesPerSecond = undefined;
    const again = await t.cli(['export', 'download', id, '-o', out, '--force']);
    expect(again.code).toBe(0);
    expect(again.stderr.split('\n').slice(0, 2)).toEqual([
      'Static export: the jobs flow (the job id looks like a jobs-flow id)',
      `removed ${join(t.dir, left[0]!)}, left by an interrupted earlier run`,
    ]);
    expect(readdirSync(t.dir)).toEqual(['site']);
    expect(existsSync(join(out, 'keep-me.txt'))).toBe(false);
  });
});

describe('--link from the command line', () => {
  it('installs releases named by job id beside a link, keeping --keep-releases of them', async () => {
    const out = join(t.dir, 'site');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await t.exportJob();
      ids.push(id);
      const r = await t.cli([
        'export',
        'download',
        id,
        '-o',
        out,
        '--link',
        '--keep-releases',
        '2',
        ...(i ? ['--force'] : []),
      ]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${out}\n`);
    }
    expect(readlinkSync(out)).toBe(join('.site-releases', ids[2]!));
    expect(readdirSync(join(t.dir, '.site-releases')).sort()).toEqual([ids[1], ids[2]].sort());
    expect(readdirSync(t.dir).sort()).toEqual(['.site-releases', 'site']);
  });

  it.each([
    [
      '--keep-releases without --link',
      ['--keep-releases', '2'],
      'error: --keep-releases goes with --link (it says how many releases to keep beside the link)',
    ],
    [
      'a --keep-releases of 0',
      ['--link', '--keep-releases', '0'],
      'error: --keep-releases: "0" is not a whole number from 1 to 9999',
    ],
    [
      'a --max-size that is not a size',
      ['--max-size', 'lots'],
      'error: --max-size: "lots" is not a size; use e.g. 5GB or 500MB',
    ],
  ])('refuses %s before any request', async (_n, flags, line) => {
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'download', 'se_0123456789abcdef', '-o', join(t.dir, 'site'), ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
    expect(seen.list).toEqual([]);
  });
});

describe('under umask 000', () => {
  /** Directories only the archive implies (no entry of their own), an explicit 0777 one, a 0666 file. */
  const archive = () =>
    rawTarGz([
      { type: 'file', path: 'guides/a/page.html', content: '<p>deep</p>' },
      { type: 'dir', path: 'open', mode: 0o777 },
      { type: 'file', path: 'index.html', content: '<p>hi</p>', mode: 0o666 },
    ]);
  const mode = (path: string) => statSync(path).mode & 0o7777;

  it('installs a site no one else can write to: directories 0755, files 0644, the archive kept 0644', async () => {
    const id = await t.exportJob();
    t.sandbox.setBundleArchive(archive());
    const out = join(t.dir, 'new', 'site');
    const r = await t.cli(['export', 'download', id, '-o', out, '--archive', join(t.dir, 'site.tgz')], {
      umask: 0o000,
    });
    expect(r.code).toBe(0);
    expect([out, join(out, 'guides'), join(out, 'guides/a'), join(out, 'open'), join(t.dir, 'new')].map(mode)).toEqual([
      0o755, 0o755, 0o755, 0o755, 0o755,
    ]);
    expect([join(out, 'index.html'), join(out, 'guides/a/page.html'), join(t.dir, 'site.tgz')].map(mode)).toEqual([
      0o644, 0o644, 0o644,
    ]);
  });

  it('--link: the releases directory and the release are 0755 too', async () => {
    const id = await t.exportJob();
    t.sandbox.setBundleArchive(archive());
    const out = join(t.dir, 'site');
    const r = await t.cli(['export', 'download', id, '-o', out, '--link'], { umask: 0o000 });
    expect(r.code).toBe(0);
    const releases = join(t.dir, '.site-releases');
    expect([releases, join(releases, id), join(releases, id, 'guides')].map(mode)).toEqual([0o755, 0o755, 0o755]);
  });

  it('a stricter umask still narrows them (027: 0750 and 0640)', async () => {
    const id = await t.exportJob();
    t.sandbox.setBundleArchive(archive());
    const out = join(t.dir, 'site');
    const r = await t.cli(['export', 'download', id, '-o', out], { umask: 0o027 });
    expect(r.code).toBe(0);
    expect([mode(out), mode(join(out, 'guides')), mode(join(out, 'index.html'))]).toEqual([0o750, 0o750, 0o640]);
  });
});

describe('a --link swap killed before its rename', () => {
  /** The temporary link the swap makes beside the target (install.ts), as a killed run leaves it. */
  const swapLeftover = (pid: number) => {
    const name = `.site.mint-admin-link-${pid}-${Date.now().toString(36)}`;
    symlinkSync(join('.site-releases', 'r0'), join(t.dir, name));
    return name;
  };

  it('leaves its temporary link, which the next run removes, saying so', async () => {
    const first = await t.cli(['export', 'download', await t.exportJob(), '-o', join(t.dir, 'site'), '--link']);
    expect(first.code).toBe(0);
    // A pid that is certainly gone: a process that has already exited.
    const dead = spawnSync('true').pid!;
    const left = swapLeftover(dead);
    const r = await t.cli(['export', 'download', await t.exportJob(), '-o', join(t.dir, 'site'), '--link', '--force']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`removed ${join(t.dir, left)}, left by an interrupted earlier run\n`);
    expect(readdirSync(t.dir).sort()).toEqual(['.site-releases', 'site']);
  });

  it('keeps the temporary link of a run that is still alive', async () => {
    const live = swapLeftover(process.pid);
    const r = await t.cli(['export', 'download', await t.exportJob(), '-o', join(t.dir, 'site'), '--link']);
    expect(r.code).toBe(0);
    expect(lstatSync(join(t.dir, live)).isSymbolicLink()).toBe(true);
  });
});

describe('targets refused before any request', () => {
  it('the home directory and the current directory with --force', async () => {
    const home = join(t.dir, '..');
    writeFileSync(join(home, 'precious'), 'x');
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'run', 'docs.example.com', '-o', home, '--force']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: refusing to replace ${home} (your home directory) with --force; name a directory below it, e.g. -o ${join(home, 'site')}\n`,
    );
    const dot = await t.cli(['export', 'download', 'se_0123456789abcdef', '-o', '.', '--force'], { cwd: t.dir });
    expect(dot.code).toBe(2);
    expect(dot.stderr).toBe(
      'error: refusing to replace . (the current directory) with --force; name a directory below it, e.g. -o site\n',
    );
    expect(seen.list).toEqual([]);
    expect(readFileSync(join(home, 'precious'), 'utf8')).toBe('x');
  });

  it('an archive inside the target seen through its link (docs -> releases/r1)', async () => {
    mkdirSync(join(t.dir, 'releases', 'r1'), { recursive: true });
    writeFileSync(join(t.dir, 'releases', 'r1', 'index.html'), 'r1');
    symlinkSync('releases/r1', join(t.dir, 'docs'));
    const seen = t.watchRequests();
    const r = await t.cli(
      ['export', 'download', 'se_0123456789abcdef', '-o', 'docs', '--force', '--archive', 'docs/site.tgz'],
      { cwd: t.dir },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --archive docs/site.tgz is inside the directory being replaced; keep the archive somewhere else\n',
    );
    expect(seen.list).toEqual([]);
  });

  it.skipIf(!CAN_MOUNT_TMPFS)(`a mount point (a real tmpfs)${TMPFS_SKIP_NOTE}`, async () => {
    const vol = join(t.dir, 'vol');
    mkdirSync(vol);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', vol]).status).toBe(0);
    try {
      const seen = t.watchRequests();
      const r = await t.cli(['export', 'run', 'docs.example.com', '-o', vol, '--force']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: ${vol} is a mount point, which cannot be replaced by a rename; extract into a directory inside it (-o ${vol}/site), or keep releases inside it with a link (-o ${vol}/site --link)\n`,
      );
      expect(seen.list).toEqual([]);
    } finally {
      spawnSync('umount', ['-l', vol]);
    }
  });
});

describe.skipIf(!CAN_CREATE_OTHER_USER)(`as an ordinary user${OTHER_USER_SKIP_NOTE}`, () => {
  it('a read-only directory in the old site: the install succeeds (exit 0) with a warning naming what is left', async () => {
    const other = createOtherUser('mintadmin-dl');
    const dir = mkdtempSync(join(tmpdir(), 'mint-admin-user-'));
    try {
      const out = occupied(join(dir, 'site'));
      mkdirSync(join(out, 'ro'));
      writeFileSync(join(out, 'ro', 'locked.txt'), 'x');
      for (const path of [dir, out, join(out, 'keep-me.txt'), join(out, 'ro'), join(out, 'ro', 'locked.txt')])
        chownSync(path, other.uid, other.gid);
      chmodSync(join(out, 'ro'), 0o555);
      const id = await t.exportJob();
      const r = await t.cli(['export', 'download', id, '-o', out, '--force'], {
        user: other,
        env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') },
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${out}\n`);
      const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(
          `^warning: could not remove ${dir}/\\.site\\.mint-admin-\\w{6}/previous; remove it by hand \\(the install itself succeeded or was not affected\\)$`,
        ),
      );
      expect(existsSync(join(out, 'keep-me.txt'))).toBe(false);
      expect(readdirSync(out).length).toBeGreaterThan(0);
    } finally {
      spawnSync('chmod', ['-R', 'u+w', dir]);
      rmSync(dir, { recursive: true, force: true });
      other.remove();
    }
  });
});
