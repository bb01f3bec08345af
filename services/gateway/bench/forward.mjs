// What the bench's reference proxies (bare-proxy.mjs, fastify-proxy.mjs) share: one request passed
// on over an undici pool, its answer gathered whole. Plain JavaScript, as they are.

/** Hop-by-hop headers. The answer keeps its length: it is written whole, as it came. */
export const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);

/**
 * Sends `method path` with `incoming`'s end-to-end headers on `pool`; calls `answer(status,
 * headers, body)` with the service's answer, or `failed()`.
 */
export function forwardWhole(pool, { method, url, headers: incoming }, answer, failed) {
  const headers = {};
  for (const name in incoming) if (!HOP.has(name)) headers[name] = incoming[name];
  let status = 0;
  let answerHeaders = {};
  const chunks = [];
  pool.dispatch(
    { method, path: url, headers, body: null },
    {
      onRequestStart() {},
      onResponseStart(_controller, code, received) {
        status = code;
        answerHeaders = received;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        for (const name of HOP) delete answerHeaders[name];
        answer(status, answerHeaders, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      },
      onResponseError() {
        failed();
      },
    },
  );
}
