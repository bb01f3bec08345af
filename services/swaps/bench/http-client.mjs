// The bench's HTTP client, in a worker thread of its own: the app under test keeps its event loop
// to itself, as it does in production, where the client is a phone. Plain JavaScript so that the
// worker needs no TypeScript loader.
// workerData: { base, asks: [{ path, cookie }], clients, count, countOffers }: sends `count` GETs of
// the asks in turn from `clients` loops, each sending its next as soon as its last answer is in.
// Posts back { latencies (ms), found and mutual (offers, and Mutual ones, in all answers, when countOffers), seconds }.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, asks, clients, count, countOffers } = workerData;
const SAME_DATES = Buffer.from('"sameDates":');
const MUTUAL = Buffer.from('"mutual":true');
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });

function get(path, cookie) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { agent, headers: { cookie } }, (response) => {
        // The answer is read whole; it is kept only where it is looked at (offers counted, or an error).
        const keep = countOffers || response.statusCode !== 200;
        const chunks = [];
        response.on('data', (chunk) => keep && chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const latencies = [];
let found = 0;
let mutual = 0;
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (next < count) {
      const ask = asks[next++ % asks.length];
      const sent = performance.now();
      const { status, body } = await get(ask.path, ask.cookie);
      latencies.push(performance.now() - sent);
      if (status !== 200) throw new Error(`matches answered ${status}: ${body.toString()}`);
      if (!countOffers) continue;
      for (let at = body.indexOf(SAME_DATES); at !== -1; at = body.indexOf(SAME_DATES, at + 1)) found += 1;
      for (let at = body.indexOf(MUTUAL); at !== -1; at = body.indexOf(MUTUAL, at + 1)) mutual += 1;
    }
  }),
);
agent.destroy();
parentPort.postMessage({ latencies, found, mutual, seconds: (performance.now() - started) / 1000 });
