// `analytics gaps` through the built CLI against a server whose counts are negative, fractional or
// huge and whose search terms and questions are 1 MB each: scores stay finite numbers in every
// format, and the agent prompt stays short.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/server.js';

const PROJECT = 'proj1';
const MB = 1024 * 1024;
const huge = (c: string) => c.repeat(MB);
const term = (searchQuery: string, hits: number) => ({
  searchQuery,
  hits,
  ctr: 0,
  topClickedPage: null,
  lastSearchedAt: '2026-11-01T00:00:00Z',
});
const turn = (id: string, query: string) => ({
  id,
  timestamp: '2026-11-01T00:00:00Z',
  query,
  response: '',
  sources: [],
  resolutionStatus: 'unanswered',
  queryCategory: 'auth',
  pageUrl: '/auth',
});

let server: Awaited<ReturnType<typeof startServer>>;
let home: ReturnType<typeof tempDir>;
beforeAll(async () => {
  const base = `/v1/analytics/${PROJECT}`;
  server = await startServer({
    [`GET ${base}/feedback/by-page`]: json(200, {
      feedback: [
        { path: '/neg', thumbsUp: -3, thumbsDown: 10, code: -20, total: -13 },
        { path: '/huge', thumbsUp: 0, thumbsDown: 1e308, code: 1e308, total: 1e308 },
      ],
      hasMore: false,
    }),
    [`GET ${base}/views`]: json(200, {
      totals: { human: 0, ai: 0, total: 0 },
      views: [
        { path: '/neg', human: 0, ai: 0, total: -500 },
        { path: '/auth', human: 0, ai: 0, total: -1e308 },
      ],
      hasMore: false,
    }),
    [`GET ${base}/assistant`]: json(200, {
      conversations: [turn('c1', huge('q')), turn('c2', huge('r'))],
      nextCursor: null,
      hasMore: false,
    }),
    [`GET ${base}/searches`]: json(200, {
      searches: [term(huge('s'), 1e308), term('fraction', 7.5), term('negative', -40)],
      totalSearches: 3,
      nextCursor: null,
    }),
  });
  home = tempDir();
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

const env = () => ({
  MINTLIFY_API_URL: server.url,
  MINTLIFY_ADMIN_API_KEY: 'mint_0123456789abcdef',
  MINTLIFY_PROJECT_ID: PROJECT,
  XDG_CONFIG_HOME: join(home.path, 'xdg'),
  HOME: home.path,
});
const gaps = (args: string[]) => runCli(['analytics', 'gaps', ...args], { env: env() });

describe('analytics gaps against counts the API should not send', () => {
  it('--json: every score and count is a finite number', async () => {
    const r = await gaps(['--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { gaps: Array<{ evidence: string; score: unknown; count: unknown }> };
    expect(report.gaps.length).toBe(5);
    for (const g of report.gaps) {
      expect(typeof g.score, g.evidence.slice(0, 20)).toBe('number');
      expect(Number.isFinite(g.count)).toBe(true);
    }
    expect(report.gaps.find((g) => g.evidence === 'fraction')?.count).toBe(7);
    expect(report.gaps.some((g) => g.evidence === 'negative')).toBe(false);
  });

  it.each([['md'], ['csv']])('--format %s: no NaN, Infinity or negative count', async (format) => {
    const r = await gaps(['--format', format]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/NaN|Infinity|-\d+ (searches|thumbs)/);
    // The Markdown report is for people: reader text is cut; csv keeps every value whole.
    if (format === 'md') expect(r.stdout.length).toBeLessThan(10_000);
    else expect(r.stdout).toContain('s'.repeat(MB));
  });

  it('--prompt: under 20 KB, each reader text cut to 200 characters, quoted as data', async () => {
    const r = await gaps(['--prompt', '--top', '20']);
    expect(r.code, r.stderr).toBe(0);
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(20 * 1024);
    expect(r.stdout).toContain(`"${'s'.repeat(199)}…"`);
    expect(r.stdout).toMatch(/cut to 200 characters/);
    expect(r.stdout).not.toMatch(/NaN|Infinity/);
  });
});
