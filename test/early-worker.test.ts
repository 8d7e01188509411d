// The CLI's entry reads its arguments before commander loads, to start the extraction worker of an
// `export download` while the program loads (src/early-worker.ts). A wrong guess costs a thread's
// boot or saves none, so the rule is held to the cases a user types.
import { describe, expect, it } from 'vitest';
import { asksForADownload } from '../src/early-worker.js';

describe('asksForADownload', () => {
  it.each([
    [['export', 'download', 'job_1', '-o', 'site']],
    [['--quiet', 'export', 'download', 'job_1']],
    [['--debug', '--json', 'export', 'download', 'job_1', '--wait']],
    [['--profile', 'export', 'export', 'download', 'job_1']],
    [['-p', 'proj_1', '--base-url', 'http://127.0.0.1:1', 'export', 'download', 'job_1']],
    [['--profile=work', 'export', 'download', 'job_1']],
  ])('%j: yes', (argv) => expect(asksForADownload(argv)).toBe(true));

  it.each([
    [[]],
    [['export', 'run', 'https://docs.example.com']],
    [['export', 'status', 'job_1']],
    [['export', 'download', '--help']],
    [['export', 'download', 'job_1', '-h']],
    [['help', 'export', 'download']],
    [['--profile', 'export', 'download', 'job_1']],
    [['download', 'export']],
    [['agent', 'run', 'export', 'download']],
    [['--', 'export', 'download']],
  ])('%j: no', (argv) => expect(asksForADownload(argv)).toBe(false));
});
