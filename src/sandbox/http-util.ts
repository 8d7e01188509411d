import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { FaultSpec } from './faults.js';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: { details?: Array<{ message: string }>; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  toReply(): Reply {
    const body = this.extra.details ? { error: this.message, details: this.extra.details } : { error: this.message };
    return { status: this.status, body, headers: this.extra.headers };
  }
}

const MAX_BODY_BYTES = 1024 * 1024;

/** The request-log entry of the request being handled; the body is filled in once read. */
export interface BodySink {
  body?: unknown;
}

/**
 * Reads the whole body and logs it (parsed when it is JSON, as text when not). Returns undefined for
 * an empty body, the parsed JSON, or throws HttpError(400) on bad JSON.
 */
export async function readJsonBody(req: IncomingMessage, log: BodySink): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large');
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') return undefined;
  try {
    log.body = JSON.parse(raw) as unknown;
    return log.body;
  } catch {
    log.body = raw;
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}

export function sendReply(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload: Buffer | undefined;
  if (typeof reply.body === 'string') {
    payload = Buffer.from(reply.body);
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (reply.body !== undefined) {
    payload = Buffer.from(JSON.stringify(reply.body));
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(payload?.length ?? 0);
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** The response an injected fault stands for; `format` shapes the default error body. */
export function faultReply(fault: FaultSpec & { status: number }, format: 'json' | 'xml'): Reply {
  const reason = STATUS_CODES[fault.status] ?? 'Error';
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.body !== undefined) return { status: fault.status, body: fault.body, headers };
  if (fault.html) {
    headers['content-type'] = 'text/html; charset=utf-8';
    const body = `<html>\r\n<head><title>${fault.status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${fault.status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
    return { status: fault.status, body, headers };
  }
  if (format === 'xml') {
    headers['content-type'] = 'application/xml';
    return { status: fault.status, body: s3ErrorXml('InjectedFault', `${fault.status} ${reason}`), headers };
  }
  return { status: fault.status, body: { error: `Injected fault: ${fault.status} ${reason}` }, headers };
}

export function s3ErrorXml(code: string, message: string): string {
  const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>SANDBOX</RequestId></Error>\n`;
}

/** Sleeps unless the sandbox is closing; then resolves early so close() never waits on a delay. */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  await sleepFor(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * Acts on a fault taken from the queue. True when the request has been dealt with (dropped or
 * answered); false when normal handling should go on (no fault, or a delay only).
 */
export async function applyFault(
  fault: FaultSpec | undefined,
  res: ServerResponse,
  format: 'json' | 'xml',
  signal: AbortSignal,
): Promise<boolean> {
  if (!fault) return false;
  if (fault.delayMs) await sleep(fault.delayMs, signal);
  if (signal.aborted) {
    res.destroy();
    return true;
  }
  if (fault.dropConnection) {
    res.socket?.destroy();
    return true;
  }
  if (fault.status === undefined) return false;
  sendReply(res, faultReply({ ...fault, status: fault.status }, format));
  return true;
}
