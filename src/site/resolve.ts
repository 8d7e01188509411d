// How a URL path maps to a file of an exported site: the one rule that `export verify`, `export serve`
// and the generated host configs all follow, so a preview or a check means what production will do.
// A path resolves to the first of: the exact file, `<path>.html`, `<path>/index.html` (a path ending
// in `/` tries only `<path>/index.html`). Query strings and fragments are ignored; the base path, when
// there is one, must prefix the path and is taken off; each segment is percent-decoded once.
import { UsageError } from '../errors.js';

/** Where a URL path leads, before looking at the disk. */
export type ParsedPath =
  /** Candidate files, relative to the site root with `/` separators, in the order to try. */
  | { kind: 'site'; candidates: string[] }
  /** Not under the base path: no file of the site can answer it. */
  | { kind: 'outside-base' }
  /** Never served: a `..` segment, an encoded slash, a NUL, bad percent-encoding. */
  | { kind: 'refused'; reason: string };

/**
 * `--base-path`: '' (the site at the root) or `/segment[/segment...]` without a trailing slash.
 * Accepts `docs`, `/docs/` and returns `/docs`.
 */
export function normalizeBasePath(text: string | undefined): string {
  if (text === undefined) return '';
  const trimmed = text.trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || !/^[A-Za-z0-9._~-]+$/.test(s))) {
    throw new UsageError(
      `--base-path: "${text}" is not a URL path prefix such as /docs (letters, digits, . _ ~ - between slashes)`,
    );
  }
  return `/${segments.join('/')}`;
}

/** Takes off `?query` and `#fragment`. */
export function stripQueryAndFragment(ref: string): string {
  const end = ref.search(/[?#]/);
  return end === -1 ? ref : ref.slice(0, end);
}

/**
 * Parses the path part of a request or link (absolute: it starts with `/`), still percent-encoded.
 * Segments are decoded one by one, so an encoded slash can never make two segments out of one.
 */
export function parseUrlPath(rawPath: string, basePath: string): ParsedPath {
  const path = stripQueryAndFragment(rawPath);
  if (!path.startsWith('/')) return { kind: 'refused', reason: 'not an absolute path' };
  let rest = path;
  if (basePath !== '') {
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return { kind: 'outside-base' };
    rest = path.slice(basePath.length) || '/';
  }
  const decoded: string[] = [];
  for (const raw of rest.split('/').slice(1)) {
    if (/%(2f|5c)/i.test(raw)) return { kind: 'refused', reason: 'an encoded slash' };
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { kind: 'refused', reason: 'bad percent-encoding' };
    }
    if (segment.includes('\0')) return { kind: 'refused', reason: 'a NUL byte' };
    if (segment.includes('\\')) return { kind: 'refused', reason: 'a backslash' };
    if (segment === '..') return { kind: 'refused', reason: 'a .. segment' };
    decoded.push(segment);
  }
  // `.` and empty segments (`//`) mean nothing to a file system path; a final empty one is the trailing slash.
  const trailingSlash = decoded.length === 0 || decoded[decoded.length - 1] === '';
  const segments = decoded.filter((s) => s !== '' && s !== '.');
  return { kind: 'site', candidates: candidateFiles(segments, trailingSlash) };
}

/** The files a host tries for these path segments, in order. */
export function candidateFiles(segments: string[], trailingSlash: boolean): string[] {
  const path = segments.join('/');
  if (path === '') return ['index.html'];
  if (trailingSlash) return [`${path}/index.html`];
  return [path, `${path}.html`, `${path}/index.html`];
}
