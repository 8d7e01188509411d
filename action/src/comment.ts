// One sticky pull-request comment per workflow and job: found again by a hidden marker on every run
// (every page of comments, up to MAX_COMMENT_PAGES), then edited in place, so a pull request never collects one
// comment per push. A comment GitHub does not take (a fork's read-only token, an outage, an expired
// token) is a warning, never the step's failure: the step's result is the command's.
import type * as Core from '@actions/core';
import type * as GitHub from '@actions/github';

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

/** The pull request this event is about, or undefined when there is none to comment on. */
export function pullRequestOf(context: typeof GitHub.context): CommentTarget | undefined {
  const { owner, repo } = context.repo;
  const payload = context.payload;
  if ((context.eventName === 'pull_request' || context.eventName === 'pull_request_target') && payload.pull_request) {
    return { owner, repo, issueNumber: payload.pull_request.number };
  }
  if (context.eventName === 'issue_comment' && payload.issue?.pull_request)
    return { owner, repo, issueNumber: payload.issue.number };
  return undefined;
}

/** Scoped by workflow and job, so two workflows (previews, the agent) keep a comment each. */
export function commentMarker(workflow: string, job: string): string {
  const scope = `${workflow}/${job}`.replace(/--+|[<>]/g, '_');
  return `<!-- mint-admin:preview ${scope} -->`;
}

export type CommentResult = 'created' | 'updated' | 'not-posted';

type Octokit = ReturnType<typeof GitHub.getOctokit>;

/** How long before the one retry of a 5xx: GitHub's outages are mostly brief. */
const RETRY_DELAY_MS = 1000;

/**
 * The most pages of 100 comments read to find ours: far more than any pull request holds, and an
 * end for a listing whose `rel="next"` never stops (a broken proxy or a hostile API would otherwise
 * keep the step running until the job's timeout).
 */
export const MAX_COMMENT_PAGES = 50;

/** A reason the comment was not posted that is no HTTP status: said as it is, never retried. */
class CommentRefused extends Error {}

export async function upsertComment(
  octokit: Octokit,
  target: CommentTarget,
  marker: string,
  body: string,
  core: typeof Core,
): Promise<CommentResult> {
  try {
    try {
      return await postOrUpdate(octokit, target, marker, body, core);
    } catch (error) {
      // Once more on a 5xx (or no answer): safe, since the retry lists again and finds a comment the
      // first try may have created after all.
      if (!isServerSide(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      return await postOrUpdate(octokit, target, marker, body, core);
    }
  } catch (error) {
    if (error instanceof CommentRefused) {
      core.warning(
        `mint-admin: could not comment on pull request #${target.issueNumber} (${error.message}); the result is in the step summary`,
      );
      return 'not-posted';
    }
    const status = (error as { status?: number }).status;
    const why =
      status === 403 || status === 404
        ? `${status}: the token may not write here, as on a fork's pull request`
        : `${status ?? 'no answer'}: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`;
    core.warning(
      `mint-admin: could not comment on pull request #${target.issueNumber} (${why}); the result is in the step summary`,
    );
    return 'not-posted';
  }
}

function isServerSide(error: unknown): boolean {
  if (error instanceof CommentRefused) return false;
  const status = (error as { status?: number }).status;
  return status === undefined || status >= 500;
}

async function postOrUpdate(
  octokit: Octokit,
  target: CommentTarget,
  marker: string,
  body: string,
  core: typeof Core,
): Promise<'created' | 'updated'> {
  const fullBody = `${marker}\n${body}`;
  const marked = await markedComments(octokit, target, marker);
  // Anyone can paste the marker (a member quoting us, another app): only a comment this token's own
  // account wrote is ours to edit; a write token could overwrite anyone else's. Without a login for
  // the token nothing is provably ours (a deleted account's comment has no login either): a new one.
  const self = marked.length > 0 ? await ownLogin(octokit) : undefined;
  if (marked.length > 0 && self === undefined) {
    core.warning(
      'mint-admin: GitHub names no login for github-token, so no earlier comment can be proven its own; a new comment is posted',
    );
  }
  const mine = self === undefined ? undefined : marked.find((c) => c.user?.login === self);
  if (mine) {
    await octokit.rest.issues.updateComment({
      owner: target.owner,
      repo: target.repo,
      comment_id: mine.id,
      body: fullBody,
    });
    return 'updated';
  }
  await octokit.rest.issues.createComment({
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    body: fullBody,
  });
  return 'created';
}

/**
 * The token's own login, as REST names comment authors (`github-actions[bot]` for GITHUB_TOKEN). GET
 * /user refuses GITHUB_TOKEN and app tokens; GraphQL's viewer answers for every kind of token.
 */
async function ownLogin(octokit: Octokit): Promise<string | undefined> {
  const { viewer } = await octokit.graphql<{ viewer?: { login?: unknown } | null }>('query { viewer { login } }');
  const login = viewer?.login;
  return typeof login === 'string' && login !== '' ? login : undefined;
}

/** The comments that start with the marker, from at most MAX_COMMENT_PAGES pages of the listing. */
async function markedComments(octokit: Octokit, target: CommentTarget, marker: string) {
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    per_page: 100,
  });
  const marked = [];
  let read = 0;
  for await (const page of pages) {
    marked.push(...page.data.filter((comment) => comment.body?.startsWith(marker)));
    if (++read < MAX_COMMENT_PAGES) continue;
    // Stopped on the last page allowed: one naming a next page means the listing did not end.
    if (/rel="next"/.test(page.headers.link ?? ''))
      throw new CommentRefused(`more than ${MAX_COMMENT_PAGES} pages of comments, or a listing that never ends`);
    break;
  }
  return marked;
}
