// One sticky pull-request comment per workflow and job: found again by a hidden marker on every run
// (all pages of comments are read), then edited in place, so a pull request never collects one
// comment per push. A token that may not write (a fork's pull request) is not the step's failure.
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
  if (context.eventName === 'issue_comment' && payload.issue?.pull_request) return { owner, repo, issueNumber: payload.issue.number };
  return undefined;
}

/** Scoped by workflow and job, so two workflows (previews, the agent) keep a comment each. */
export function commentMarker(workflow: string, job: string): string {
  const scope = `${workflow}/${job}`.replace(/--+|[<>]/g, '_');
  return `<!-- mint-admin:preview ${scope} -->`;
}

const TRUSTED = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

export type CommentResult = 'created' | 'updated' | 'forbidden';

export async function upsertComment(
  octokit: ReturnType<typeof GitHub.getOctokit>,
  target: CommentTarget,
  marker: string,
  body: string,
  core: typeof Core,
): Promise<CommentResult> {
  const fullBody = `${marker}\n${body}`;
  try {
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner: target.owner,
      repo: target.repo,
      issue_number: target.issueNumber,
      per_page: 100,
    });
    // Anyone can paste the marker into a comment: only one written by a bot (the workflow token) or by
    // a member (a member's token) is taken as ours, never a passer-by's, which we could not edit anyway.
    const ours = comments.filter((comment) => comment.body?.startsWith(marker));
    const mine = ours.find((c) => c.user?.type === 'Bot') ?? ours.find((c) => TRUSTED.has(c.author_association));
    if (mine) {
      await octokit.rest.issues.updateComment({ owner: target.owner, repo: target.repo, comment_id: mine.id, body: fullBody });
      return 'updated';
    }
    await octokit.rest.issues.createComment({ owner: target.owner, repo: target.repo, issue_number: target.issueNumber, body: fullBody });
    return 'created';
  } catch (error) {
    const status = (error as { status?: number }).status;
    // A fork's pull request gets a read-only token: 403 (or 404 from a token that cannot see the repo).
    if (status === 403 || status === 404) {
      core.warning(`mint-admin: could not comment on pull request #${target.issueNumber} (${status}: the token may not write here, as on a fork's pull request); the result is in the step summary`);
      return 'forbidden';
    }
    throw error;
  }
}
