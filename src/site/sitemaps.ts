// The site's sitemaps: every entry of sitemap.xml, and of the sitemaps a sitemap index lists, must be
// a file of the site; their absolute URLs also name the site's own hosts.
import { join } from 'node:path';
import type { FileIndex } from './file-index.js';
import { resolveInSite } from './classify.js';
import { overlongMarkup, REMEMBERED_COUNT, shortened } from './page-references.js';
import type { ProblemList } from './problem-list.js';
import { sitemapLocations, URL_LIMIT } from './references.js';
import { parseUrlPath } from './resolve.js';

/** sitemap.xml's entries, and those of the sitemaps a sitemap index lists (local files only). */
export async function checkSitemaps(
  root: string,
  files: FileIndex,
  basePath: string,
  siteHosts: Set<string>,
  report: { sitemapEntries: number | null },
  problems: ProblemList,
): Promise<void> {
  const queue = ['sitemap.xml'];
  const visited = new Set(queue);
  let entries = 0;
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const page = file;
    await sitemapLocations(join(root, page), (loc, index) => {
      if (!index) entries++;
      if (loc.length > URL_LIMIT) return problems.add({ page, target: shortened(loc), kind: 'overlong-reference' });
      const url = parseAbsoluteUrl(loc);
      if (!url) return problems.add({ page, target: loc, kind: 'missing-sitemap-entry' });
      // A sitemap's URLs are absolute (sitemaps.org): their host is the site's own.
      if (siteHosts.size < REMEMBERED_COUNT) siteHosts.add(url.host);
      const outcome = resolveInSite(url.pathname, basePath, files);
      if (index && outcome === 'found') {
        const nested = parseUrlPath(url.pathname, basePath);
        const local = nested.kind === 'site' ? nested.candidates.find((c) => files.has(c)) : undefined;
        if (local && !visited.has(local)) queue.push(local), visited.add(local);
      }
      if (outcome !== 'found')
        problems.add({ page, target: loc, kind: outcome === 'missing' ? 'missing-sitemap-entry' : outcome });
    }).catch(overlongMarkup(page, problems));
  }
  report.sitemapEntries = entries;
}

/** URL.parse arrived in Node 20.18 only as an experiment; this works on every supported version. */
function parseAbsoluteUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
