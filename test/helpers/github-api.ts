// A loopback GitHub REST API for the action's tests: issue comments held in memory, and every request
// checked against GitHub's published OpenAPI description (@octokit/openapi): a method and path the
// description lacks fails the test (it lands in `unknown`), so the action cannot rely on a route the
// real API does not have.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startServer, type Handler } from './server.js';

const require = createRequire(import.meta.url);

export interface OpenApiRoutes {
  /** The path template and method the description has for this request, or undefined. */
  match(method: string, path: string): string | undefined;
}

/** GitHub's path templates as matchers; read once per test file (13 MB of JSON). */
export function loadGithubRoutes(): OpenApiRoutes {
  const description = JSON.parse(
    readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8'),
  ) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const routes = Object.entries(description.paths).map(([template, operations]) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    methods: new Set(Object.keys(operations).map((m) => m.toUpperCase())),
  }));
  return {
    match(method, path) {
      const route = routes.find((r) => r.pattern.test(path) && r.methods.has(method));
      return route ? `${method} ${route.template}` : undefined;
    },
  };
}

export interface IssueComment {
  id: number;
  body: string;
  /** Who wrote it; default the workflow token's bot; null for a deleted account (REST's `user: null`). */
  author?: { login: string; type: 'Bot' | 'User'; association: string } | null;
}

export interface FakeGithub {
  url: string;
  /** Every request: method, path with query, headers, body. */
  requests: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }>;
  /** Requests GitHub's description has no route for. */
  unknown: string[];
  /** Comments on the pull request, by issue number. */
  comments: Map<number, IssueComment[]>;
  /** Answer comment writes with 403, as GitHub does for a fork's read-only token. */
  forbidWrites: boolean;
  /** The token's own account: the author of the comments it writes, and GraphQL's `viewer`. */
  viewer: { login: string | null; type: 'Bot' | 'User'; association: string };
  /** Every page of a listing names a next one, however many there are (a broken or hostile API). */
  endlessPages: boolean;
  /** Statuses to answer, in turn, instead of serving a request to this route (GitHub outages, 401, 422). */
  failures: Record<'list' | 'create' | 'update' | 'viewer', number[]>;
  close(): Promise<void>;
}

/** `pageSize`: comments per page of a listing, small so that a test sees the action page through. */
export async function startFakeGithub(
  routes: OpenApiRoutes,
  { owner, repo, pageSize = 2 }: { owner: string; repo: string; pageSize?: number },
): Promise<FakeGithub> {
  const comments = new Map<number, IssueComment[]>();
  let nextId = 1000;
  const base = `/repos/${owner}/${repo}/issues`;
  const state = {
    forbidWrites: false,
    endlessPages: false,
    unknown: [] as string[],
    viewer: GITHUB_ACTIONS_BOT as FakeGithub['viewer'],
    failures: { list: [], create: [], update: [], viewer: [] } as FakeGithub['failures'],
  };

  const handler: Handler = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const failed = (route: keyof FakeGithub['failures']) => {
      const status = state.failures[route].shift();
      if (status !== undefined) send(status, { message: `fake ${status}` });
      return status !== undefined;
    };
    // GraphQL is not in the REST description: only the one query the action sends is answered.
    if (req.method === 'POST' && url.pathname === '/graphql') {
      if (failed('viewer')) return;
      const { query } = JSON.parse(req.body) as { query: string };
      if (query.replace(/\s+/g, ' ').trim() !== 'query { viewer { login } }') {
        state.unknown.push(`POST /graphql ${query}`);
        return send(200, { errors: [{ message: 'unexpected query' }] });
      }
      return send(200, { data: { viewer: { login: state.viewer.login } } });
    }
    if (!routes.match(req.method ?? '', url.pathname)) {
      state.unknown.push(`${req.method} ${url.pathname}`);
      return send(404, { message: 'Not Found (not in GitHub OpenAPI description)' });
    }
    const list = /^(?:\/repos\/[^/]+\/[^/]+\/issues)\/(\d+)\/comments$/.exec(url.pathname);
    const one = /^(?:\/repos\/[^/]+\/[^/]+\/issues)\/comments\/(\d+)$/.exec(url.pathname);
    if (!url.pathname.startsWith(base)) return send(404, { message: 'Not Found' });
    const forbidden = () => send(403, { message: 'Resource not accessible by integration', status: '403' });
    if (list && req.method === 'GET') {
      if (failed('list')) return;
      const all = comments.get(Number(list[1])) ?? [];
      const page = Number(url.searchParams.get('page') ?? '1');
      const perPage = Math.min(pageSize, Number(url.searchParams.get('per_page') ?? '30'));
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const headers: Record<string, string> = {};
      if (page < last || state.endlessPages)
        headers.link = `<http://${req.headers.host}${url.pathname}?per_page=${perPage}&page=${page + 1}>; rel="next", <http://${req.headers.host}${url.pathname}?per_page=${perPage}&page=${last}>; rel="last"`;
      return send(200, slice.map(asGithubComment), headers);
    }
    if (list && req.method === 'POST') {
      if (state.forbidWrites) return forbidden();
      if (failed('create')) return;
      const author = state.viewer.login === null ? null : { ...state.viewer, login: state.viewer.login };
      const comment = { id: nextId++, body: (JSON.parse(req.body) as { body: string }).body, author };
      comments.set(Number(list[1]), [...(comments.get(Number(list[1])) ?? []), comment]);
      return send(201, asGithubComment(comment));
    }
    if (one && req.method === 'PATCH') {
      if (state.forbidWrites) return forbidden();
      if (failed('update')) return;
      const comment = [...comments.values()].flat().find((c) => c.id === Number(one[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = (JSON.parse(req.body) as { body: string }).body;
      return send(200, asGithubComment(comment));
    }
    return send(404, { message: 'Not Found' });
  };
  // One catch-all route: the server helper keys routes by "METHOD /path"; every request goes here.
  const server = await startServer(new Proxy({} as Record<string, Handler>, { get: () => handler }));
  return {
    url: server.url,
    requests: server.requests as FakeGithub['requests'],
    get unknown() {
      return state.unknown;
    },
    comments,
    get forbidWrites() {
      return state.forbidWrites;
    },
    set forbidWrites(value: boolean) {
      state.forbidWrites = value;
    },
    get endlessPages() {
      return state.endlessPages;
    },
    set endlessPages(value: boolean) {
      state.endlessPages = value;
    },
    get viewer() {
      return state.viewer;
    },
    set viewer(value) {
      state.viewer = value;
    },
    get failures() {
      return state.failures;
    },
    set failures(value) {
      state.failures = value;
    },
    close: server.close,
  };
}

/** GITHUB_TOKEN's account: REST names it `github-actions[bot]`, and so does GraphQL's `viewer`. */
export const GITHUB_ACTIONS_BOT = {
  login: 'github-actions[bot]',
  type: 'Bot',
  association: 'NONE',
} as const satisfies FakeGithub['viewer'];

function asGithubComment(comment: IssueComment) {
  const author = comment.author === undefined ? GITHUB_ACTIONS_BOT : comment.author;
  return {
    id: comment.id,
    node_id: `IC_${comment.id}`,
    body: comment.body,
    user: author === null ? null : { login: author.login, type: author.type },
    author_association: author?.association ?? 'NONE',
    html_url: `https://github.com/c/${comment.id}`,
  };
}
