// The release workflow's first step (.github/workflows/release.yml): the pushed tag must be exactly
// `v` + package.json's version, and CHANGELOG.md must hold a dated section for that version, so that
// what npm publishes, what `--version` prints (the build inlines package.json's) and what the notes
// say are one version. Prints the section (the GitHub release's notes) to --notes <file>, and tells
// the workflow, through $GITHUB_OUTPUT, the major tag to move and whether this is a prerelease
// (which moves no tag and is published under npm's `next`, not `latest`).
//
//   node scripts/check-release-version.mjs <tag> [--root <dir>] [--notes <file>]
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?$/;

/**
 * The lines under `## [version] - YYYY-MM-DD` up to the next `## ` heading, trimmed; undefined when absent or undated.
 * @param {string} changelog
 * @param {string} version
 */
export function changelogSection(changelog, version) {
  const lines = changelog.split('\n');
  const heading = new RegExp(`^## \\[${version.replace(/[.+]/g, '\\$&')}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`);
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return undefined;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^## /.test(line) || /^\[[^\]]+\]: /.test(line));
  return rest
    .slice(0, end < 0 ? rest.length : end)
    .join('\n')
    .trim();
}

/**
 * What is wrong with releasing `tag` from these files (an empty `problems` when nothing is), and what the workflow needs.
 * @param {string} tag
 * @param {{ version?: unknown }} packageJson package.json as parsed: anything may be in it
 * @param {string} changelog
 */
export function checkReleaseVersion(tag, packageJson, changelog) {
  const problems = [];
  const version = packageJson.version;
  if (typeof version !== 'string' || !SEMVER.test(version))
    problems.push(`package.json's version ${JSON.stringify(version)} is not a semantic version`);
  if (tag !== `v${version}`)
    problems.push(
      `the tag ${JSON.stringify(tag)} does not match package.json's version ${JSON.stringify(version)}: tag v${version}, or change the version first`,
    );
  const notes = typeof version === 'string' ? changelogSection(changelog, version) : undefined;
  if (!notes) problems.push(`CHANGELOG.md has no dated section "## [${version}] - YYYY-MM-DD" with entries under it`);
  const match = typeof version === 'string' ? SEMVER.exec(version) : null;
  return { problems, version, major: match ? `v${match[1]}` : undefined, prerelease: Boolean(match?.[4]), notes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (/** @type {string} */ name) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const [, value] = args.splice(at, 2);
    return value;
  };
  const root = option('--root') ?? fileURLToPath(new URL('..', import.meta.url));
  const notesFile = option('--notes');
  const [tag] = args;
  if (!tag) {
    console.error('usage: node scripts/check-release-version.mjs <tag> [--root <dir>] [--notes <file>]');
    process.exit(2);
  }
  const result = checkReleaseVersion(
    tag,
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
    readFileSync(join(root, 'CHANGELOG.md'), 'utf8'),
  );
  if (result.problems.length > 0) {
    for (const problem of result.problems) console.error(`release: ${problem}`);
    process.exit(1);
  }
  if (notesFile) writeFileSync(notesFile, `${result.notes}\n`);
  if (process.env.GITHUB_OUTPUT) {
    appendFileSync(
      process.env.GITHUB_OUTPUT,
      `version=${result.version}\nmajor=${result.major}\nprerelease=${result.prerelease}\n`,
    );
  }
  console.log(
    `release: ${tag} is package.json's ${result.version}, with its CHANGELOG section${result.prerelease ? ' (a prerelease)' : `; moves ${result.major}`}`,
  );
}
