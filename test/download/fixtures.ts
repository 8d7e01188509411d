// Shared set-up for the download tests: a source tree and its tar.gz, a storage origin on loopback,
// and downloadBundle wired to a FakeClock, a captured terminal and a real undici dispatcher.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { join, relative } from 'node:path';
import { create as createTar } from 'tar';
import { createDispatcher } from '../../src/api/http.js';
import type { Bundle } from '../../src/api/types.js';
import { downloadBundle, type DownloadBundleOptions } from '../../src/download/index.js';
import { createReporter } from '../../src/cli/io.js';
import { tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { captureIO } from '../helpers/io.js';
import { startServer, type Handler } from '../helpers/server.js';

export const SIGNATURE = 'c2VjcmV0LXNpZ25hdHVyZQ';

/**
 * The ways the extraction runs, for `describe.each(EXTRACTIONS)`: one since the download has one path
 * (the tests keep the loop so that their names and assertions stay as they were).
 */
export const EXTRACTIONS: [string, URL | false][] = [['through the one path', false]];

/** Every regular file under `dir` by relative path, plus symlinks as `-> target`. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

/** A small site with nested folders, an empty file and an incompressible asset (so cuts land mid-body). */
export function writeSourceTree(dir: string): void {
  const files: Record<string, string | Buffer> = {
    'index.html': '<!DOCTYPE html><h1>Home</h1>\n',
    'guides/getting-started.html': '<h1>Getting started</h1>\n'.repeat(200),
    '_next/static/chunks/main.js': randomBytes(256 * 1024),
    'images/logo.png': randomBytes(3000),
    'deep/a/b/c/page.html': '<p>deep</p>\n',
    'empty.txt': '',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export async function tarGzOf(dir: string, file: string): Promise<Buffer> {
  await createTar({ gzip: true, cwd: dir, file, portable: true }, ['.']);
  return readFileSync(file);
}

export interface Harness {
  url: string;
  requests: Awaited<ReturnType<typeof startServer>>['requests'];
  clock: FakeClock;
  /** The links handed out by getBundle, in order. */
  links: string[];
  stderr: () => string;
  download: (overrides?: Partial<DownloadBundleOptions>) => ReturnType<typeof downloadBundle>;
  close: () => Promise<void>;
}

/**
 * Storage at `/bundle.tar.gz`, `getBundle` handing out a new signed link each call. `sizeBytes`
 * defaults to the archive's length.
 */
export interface HarnessOptions {
  storage: Handler;
  archive: () => Buffer;
  target: string;
  sizeBytes?: () => number;
  /** No longer chooses anything: there is one path (EXTRACTIONS). */
  extraction?: URL | false;
}

/** The sample site (writeSourceTree) and its tar.gz, made once before the file's tests and removed after them. */
export function useSampleArchive(): { readonly archive: Buffer; readonly tree: Map<string, string> } {
  const sample: { archive: Buffer; tree: Map<string, string> } = {
    archive: Buffer.alloc(0),
    tree: new Map<string, string>(),
  };
  let source: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    source = tempDir();
    writeSourceTree(join(source.path, 'site'));
    sample.archive = await tarGzOf(join(source.path, 'site'), join(source.path, 'site.tar.gz'));
    sample.tree = readTree(join(source.path, 'site'));
  });
  afterAll(() => source?.cleanup());
  return sample;
}

/**
 * Each test's own directory (`root`, made when first asked for) and the harness it starts there
 * (`start`), both gone after the test.
 */
export function useHarness(): { readonly root: string; start(opts: HarnessOptions): Promise<Harness> } {
  let root: ReturnType<typeof tempDir> | undefined;
  let started: Harness | undefined;
  afterEach(async () => {
    await started?.close();
    started = undefined;
    root?.cleanup();
    root = undefined;
  });
  return {
    get root() {
      root ??= tempDir();
      return root.path;
    },
    async start(opts) {
      started = await harness(opts);
      return started;
    },
  };
}

export async function harness(opts: HarnessOptions): Promise<Harness> {
  const server = await startServer({ 'GET /bundle.tar.gz': opts.storage });
  const clock = new FakeClock();
  const { io, stderr } = captureIO();
  const dispatcher = createDispatcher({});
  const links: string[] = [];
  const getBundle = async (): Promise<Bundle> => {
    const url = `${server.url}/bundle.tar.gz?X-Amz-Expires=900&X-Amz-Signature=${SIGNATURE}${links.length}`;
    links.push(url);
    return {
      jobId: 'se_1',
      bundleUrl: url,
      sizeBytes: opts.sizeBytes?.() ?? opts.archive().length,
      expiresAt: '2026-11-22T12:15:00.000Z',
    };
  };
  return {
    url: server.url,
    requests: server.requests,
    clock,
    links,
    stderr,
    download: (overrides = {}) =>
      downloadBundle({
        getBundle,
        target: opts.target,
        force: false,
        dispatcher,
        clock,
        random: () => 0.5,
        signal: new AbortController().signal,
        reporter: createReporter(io, { json: false, quiet: false, color: false }, clock),
        debug: () => undefined,
        ...overrides,
      }),
    close: async () => {
      await dispatcher.close();
      await server.close();
    },
  };
}
