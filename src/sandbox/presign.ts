import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedLink {
  url: string;
  expiresAt: number;
}

export type LinkCheck = { ok: true; jobId: string } | { ok: false; reason: 'signature' | 'expired' };

/** `/{jobId}/{file}.tar.gz`: the jobs flow's `bundle.tar.gz`, the project flow's `{subdomain}-export-{date}.tar.gz`. */
const LINK_PATH = /^\/([^/]+)\/[A-Za-z0-9._-]+\.tar\.gz$/;

/**
 * S3-looking presigned links: an issue time and lifetime in whole seconds (as X-Amz-Date and
 * X-Amz-Expires are), signed with an HMAC over path, issue time and lifetime so none can be edited.
 */
export class LinkSigner {
  constructor(private readonly secret: string) {}

  sign(origin: string, jobId: string, issuedAtMs: number, ttlMs: number, fileName = 'bundle.tar.gz'): SignedLink {
    const path = `/${encodeURIComponent(jobId)}/${encodeURIComponent(fileName)}`;
    const issuedAt = Math.floor(issuedAtMs / 1000) * 1000;
    const expiresSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
    const amzDate = toAmzDate(issuedAt);
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': `SANDBOXKEY/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(expiresSeconds),
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Signature': this.signature(path, amzDate, String(expiresSeconds)),
    });
    return { url: `${origin}${path}?${query}`, expiresAt: issuedAt + expiresSeconds * 1000 };
  }

  check(pathname: string, query: URLSearchParams, now: number): LinkCheck {
    const match = LINK_PATH.exec(pathname);
    const amzDate = query.get('X-Amz-Date') ?? '';
    const expires = query.get('X-Amz-Expires') ?? '';
    const given = Buffer.from(query.get('X-Amz-Signature') ?? '');
    const wanted = Buffer.from(this.signature(pathname, amzDate, expires));
    const issuedAt = fromAmzDate(amzDate);
    if (
      !match?.[1] ||
      issuedAt === undefined ||
      !/^\d+$/.test(expires) ||
      given.length !== wanted.length ||
      !timingSafeEqual(given, wanted)
    ) {
      return { ok: false, reason: 'signature' };
    }
    if (now >= issuedAt + Number(expires) * 1000) return { ok: false, reason: 'expired' };
    return { ok: true, jobId: decodeURIComponent(match[1]) };
  }

  private signature(path: string, amzDate: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${path}\n${amzDate}\n${expires}`).digest('hex');
  }
}

function toAmzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function fromAmzDate(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : undefined;
}
