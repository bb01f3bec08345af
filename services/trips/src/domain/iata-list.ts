import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { AirportRepository } from '../data/airports';

/** The public IATA list as it goes out: JSON, gzipped, and the tag a repeat request quotes. */
export interface IataListAnswer {
  json: string;
  gzip: Buffer;
  /** Weak: the plain and the gzipped answer are the same list, so they share it. */
  etag: string;
}

/**
 * The codes-only list every phone fetches, made once and kept: about 10,000 codes are 60 KB of
 * JSON and about 24 KB gzipped, so it is compressed once here rather than on every request. It is
 * made again after this replica changes the table and every `ttlMs`, so a code another replica
 * added shows within that time.
 */
export function createIataList(airports: Pick<AirportRepository, 'listCodes'>, ttlMs = 60_000) {
  let cache: { answer: Promise<IataListAnswer>; at: number } | undefined;

  async function build(): Promise<IataListAnswer> {
    const json = JSON.stringify(await airports.listCodes());
    const etag = `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
    return { json, gzip: gzipSync(json, { level: 9 }), etag };
  }

  return {
    current(): Promise<IataListAnswer> {
      if (!cache || Date.now() - cache.at > ttlMs) {
        const answer = build();
        cache = { answer, at: Date.now() };
        // A failed build is not kept: the next request tries again.
        answer.catch(() => {
          if (cache?.answer === answer) cache = undefined;
        });
      }
      return cache.answer;
    },
    invalidate(): void {
      cache = undefined;
    },
  };
}
export type IataList = ReturnType<typeof createIataList>;
