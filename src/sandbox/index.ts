import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SearchTerm } from '../api/types.js';
import { AgentService } from './agent.js';
import { generatedArchive, generatedFiles } from './bundle.js';
import { DeployService } from './deploy.js';
import { ExportService } from './export.js';
import { Faults, type SandboxExportFlow } from './faults.js';
import { LinkSigner } from './presign.js';
import { SearchService } from './searches.js';
import { AnalyticsService } from './analytics.js';
import type { AnalyticsSize } from './analytics-data.js';
import { createApiHandler } from './server.js';
import { countPages, DEFAULT_BUNDLE, type BundleSpec } from './site.js';
import { startOfUtcDay } from './search-data.js';
import { bufferSource, fileSource, handleStorage, type ArchiveSource } from './storage.js';

export {
  EXPORT_FLOWS,
  Faults,
  parseFlows,
  ROUTE_NAMES,
  type FaultSpec,
  type RouteName,
  type SandboxExportFlow,
} from './faults.js';
export type { BundleSpec } from './site.js';
export { SANDBOX_AUTOMATIONS } from './deploy.js';
export { FIXED_DATA_END as SANDBOX_FIXED_DATA_END } from './search-data.js';

export interface SandboxOptions {
  /** API port; 0 = ephemeral. */
  port?: number;
  host?: string;
  apiKey?: string;
  projectId?: string;
  searchTermCount?: number;
  /** Pages, feedback entries and assistant conversations generated (analytics-data.ts). */
  analytics?: Partial<AnalyticsSize>;
  seed?: number;
  bundle?: BundleSpec;
  linkTtlMs?: number;
  now?: () => number;
  /**
   * Where the generated analytics end (epoch ms): they cover the 90 days before it. Default: the start
   * of today (UTC) by `now`, so recent ranges have data whatever the date; tests that assert exact
   * dates pin it (SANDBOX_FIXED_DATA_END).
   */
  dataEndsAt?: number;
  /** Rate-limit windows (default 10 s shared by update/trigger/webhook, 60 s for previews). */
  deployRateWindowMs?: number;
  previewRateWindowMs?: number;
  /** The static export flows served (default both); each can also be switched at run time (Faults.exportFlows). */
  flows?: SandboxExportFlow[];
}

export interface RecordedRequest {
  origin: 'api' | 'storage';
  method: string;
  /** Path including the query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  /**
   * Set once the connection is done with: 'answered' when the whole answer was sent, 'cut' when the
   * client went away first (a cancelled download). Lets a test wait for that event, not a time.
   */
  ended?: 'answered' | 'cut';
}

export interface Sandbox {
  baseUrl: string;
  storageUrl: string;
  apiKey: string;
  projectId: string;
  requests: RecordedRequest[];
  faults: Faults;
  setBundleArchive(buf: Buffer | null): void;
  bundleFiles(): Promise<Map<string, Buffer>>;
  searchTerms(): SearchTerm[];
  /** The generated analytics, for tests to compute what the CLI should print. */
  analytics: AnalyticsService;
  close(): Promise<void>;
}

export const DEFAULT_API_KEY = 'mint_sandbox_0123456789abcdef';
export const DEFAULT_PROJECT_ID = 'proj_sandbox';

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  const apiKey = opts.apiKey ?? DEFAULT_API_KEY;
  const projectId = opts.projectId ?? DEFAULT_PROJECT_ID;
  const seed = opts.seed ?? 1;
  const spec = opts.bundle ?? DEFAULT_BUNDLE;
  const now = opts.now ?? Date.now;
  const lifetime = new AbortController();
  const faults = new Faults(opts.flows);
  const signer = new LinkSigner(`sandbox-link-secret:${seed}:${apiKey}`);
  const requests: RecordedRequest[] = [];
  let override: ArchiveSource | null = null;
  const archive = async (): Promise<ArchiveSource> => {
    if (override) return override;
    const generated = await generatedArchive(spec, seed);
    return fileSource(generated.path, generated.size);
  };
  let storageUrl = '';

  const agent = new AgentService(seed, faults, now);
  const dataEnd = opts.dataEndsAt ?? startOfUtcDay(now());
  const searches = new SearchService(opts.searchTermCount ?? 3000, seed, `sandbox-cursor-secret:${seed}`, dataEnd);
  const analytics = new AnalyticsService(
    { pages: 400, feedback: 2000, conversations: 3000, ...opts.analytics },
    seed,
    dataEnd,
  );
  const exports = new ExportService({
    seed,
    faults,
    now,
    signer,
    storageOrigin: () => storageUrl,
    linkTtlMs: opts.linkTtlMs ?? 15 * 60 * 1000,
    pageCount: countPages(spec, seed),
    archiveSize: async () => (await archive()).size,
  });
  const deploy = new DeployService({
    seed,
    projectId,
    faults,
    now,
    deployWindowMs: opts.deployRateWindowMs,
    previewWindowMs: opts.previewRateWindowMs,
  });
  const api = createApiHandler({
    apiKey,
    projectId,
    faults,
    agent,
    exports,
    searches,
    analytics,
    deploy,
    signal: lifetime.signal,
  });
  const storageDeps = {
    faults,
    signer,
    now,
    bundleExists: (id: string) => exports.hasBundle(id),
    archive,
    signal: lifetime.signal,
  };

  const record = (origin: RecordedRequest['origin'], req: IncomingMessage, res: ServerResponse): RecordedRequest => {
    const entry: RecordedRequest = {
      origin,
      method: req.method ?? '',
      path: req.url ?? '',
      headers: { ...req.headers },
    };
    res.once('close', () => {
      entry.ended = res.writableFinished ? 'answered' : 'cut';
    });
    requests.push(entry);
    return entry;
  };
  const apiServer = createServer((req, res) => void api(req, res, record('api', req, res)));
  const storageServer = createServer((req, res) => {
    record('storage', req, res);
    handleStorage(req, res, storageDeps).catch((error: unknown) => fail(res, error));
  });

  const apiAddress = await listen(apiServer, opts.port ?? 0, host);
  const storageAddress = await listen(storageServer, 0, host).catch(async (error: unknown) => {
    await close(apiServer);
    throw error;
  });
  const origin = (address: AddressInfo) =>
    `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  storageUrl = origin(storageAddress);

  return {
    baseUrl: origin(apiAddress),
    storageUrl,
    apiKey,
    projectId,
    requests,
    faults,
    setBundleArchive(buf) {
      override = buf ? bufferSource(buf) : null;
    },
    bundleFiles: async () => generatedFiles(spec, seed),
    searchTerms: () => searches.allTerms(),
    analytics,
    async close() {
      lifetime.abort();
      await Promise.all([close(apiServer), close(storageServer)]);
    },
  };
}

function fail(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'content-type': 'text/plain' }).end(`Sandbox error: ${(error as Error).message}`);
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Closes keep-alive and in-flight connections too, so close() never waits on an idle client. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
