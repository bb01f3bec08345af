import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/**
 * A JSON answer that is the same for many callers, serialized and compressed once: served as is
 * (gzip when the client accepts it; the gateway passes an encoded answer through untouched), and
 * answered 304 to a client that already holds this `etag`.
 */
export interface SharedBody {
  etag: string;
  json: Buffer;
  gzip: Buffer;
}

export async function sharedBody(json: string): Promise<SharedBody> {
  const bytes = Buffer.from(json);
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  return { etag, json: bytes, gzip: await gzipAsync(bytes) };
}
