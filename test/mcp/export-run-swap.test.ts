// export_run's way under --root swapped for a link out of it while the archive is being written: the
// writes into the moved work directory fail (ENOENT) before the periodic re-check has looked again. The
// answer must still be the refusal ("do not call export_run again"), not "the bundle is not a valid
// archive; try again", which would have the agent start a second export. In process, on a clock that
// does not move during the download, so the periodic re-check never gets a second look.
import { mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { createDispatcher } from '../../src/api/http.js';
import { exportRun } from '../../src/mcp/tools/export.js';
import type { ToolEnv } from '../../src/mcp/tool.js';
import { FakeClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox();

function toolEnv(root: string, clock: FakeClock, onProgress: (message: string) => void): ToolEnv {
  const { sandbox } = fx;
  const dispatcher = createDispatcher({});
  const signal = new AbortController().signal;
  const api = new ApiClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    userAgent: 'mint-admin/test',
    dispatcher,
    clock,
    random: () => 0.5,
  });
  return {
    api: async () => api,
    projectId: async () => sandbox.projectId,
    baseUrl: async () => sandbox.baseUrl,
    exportApi: async () => 'auto',
    dispatcher: async () => dispatcher,
    signal,
    progress: (_progress, _total, message) => onProgress(message),
    analyticsDatabase: async () => join(root, 'unused.duckdb'),
    root,
    clock,
    random: () => 0.5,
  };
}

describe('export_run: the way swapped between two re-checks', () => {
  it('answers with the refusal, not an invalid archive, and leaves nothing outside or in the directory moved away', async () => {
    fx.sandbox.faults.exportPollsToFinish = 1;
    // Slow enough that the archive arrives in several pieces, each one a progress event.
    fx.sandbox.faults.throttleBytesPerSecond = 20_000;
    const root = tempDir('mint-admin-mcp-root-');
    const outside = tempDir();
    mkdirSync(join(root.path, 'during'));
    let downloads = 0;
    const env = toolEnv(root.path, new FakeClock(), (message) => {
      // The first download event is re-checked (the clock stands still after it); the way changes at the second.
      if (!message.startsWith('download:') || ++downloads !== 2) return;
      renameSync(join(root.path, 'during'), join(root.path, 'during-away'));
      symlinkSync(outside.path, join(root.path, 'during'));
    });
    try {
      const args = { directory: 'during/site', domain: 'docs.example.com', force: false, timeoutSeconds: 600 };
      const error = await exportRun.run(args, env).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(downloads).toBeGreaterThanOrEqual(2);
      const failure = exportRun.explain?.(error);
      expect(failure?.message).toMatch(
        /^export \w+ was started and completed, but nothing was installed: directory "during\/site" is refused: /,
      );
      expect(failure?.next).toMatch(/do not call export_run again until/);
      expect(readdirSync(outside.path)).toEqual([]);
      expect(readdirSync(join(root.path, 'during-away'))).toEqual([]);
    } finally {
      root.cleanup();
      outside.cleanup();
    }
  });
});
