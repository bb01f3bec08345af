// The proposals bench's HTTP client, in a worker thread of its own: the app under test keeps its
// event loop to itself, as it does in production, where the client is a phone (and the gateway's
// kept-alive connections). Plain JavaScript so that the worker needs no TypeScript loader.
// workerData: { base, warmUp, creates, rounds, floor }: `warmUp` then `creates` ([{ cookie, body }]) are
// proposed one at a time (the warm-up's accepted too); each round ([{ cookie, body, ownerCookie }]) is proposed all at once, then
// every owner accepts their proposal at once; then as many rounds of as many POSTs at once to
// `floor` (the bench's least-possible write). Posts back { creates, accepts, floor }: [{ status, ms }]
// of the timed requests (the creates, the accepts and the floor's writes). Around each burst of
// accepts or floor writes it posts { burst, at: 'start' | 'end' }, so that the app's thread can
// tell how busy its event loop was for them.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, warmUp, creates, rounds, floor } = workerData;
const agent = new http.Agent({ keepAlive: true });

function post(path, cookie, body, origin = base) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const sent = performance.now();
    const request = http.request(`${origin}${path}`, { method: 'POST', agent, headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, ms: performance.now() - sent, json: JSON.parse(Buffer.concat(chunks).toString()) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}
const propose = ({ cookie, body }) => post('/api/swaps/proposals', cookie, body);
const timing = ({ status, ms }) => ({ status, ms });

// The warm-up proposals are accepted too: the first accept's answer compiles its serializer.
for (const ask of warmUp) {
  const proposal = await propose(ask);
  await post(`/api/swaps/proposals/${proposal.json.id}/accept`, ask.ownerCookie, {});
}
const created = [];
for (const ask of creates) created.push(timing(await propose(ask)));
const accepts = [];
for (const round of rounds) {
  const proposals = await Promise.all(round.map(propose));
  parentPort.postMessage({ burst: 'accepts', at: 'start' });
  const answers = await Promise.all(round.map((ask, i) => post(`/api/swaps/proposals/${proposals[i].json.id}/accept`, ask.ownerCookie, {})));
  parentPort.postMessage({ burst: 'accepts', at: 'end' });
  accepts.push(...answers.map(timing));
}
const floorWrites = [];
for (let i = 0; i < 20; i += 1) await post('/', '', {}, floor);
for (const round of rounds) {
  parentPort.postMessage({ burst: 'floor', at: 'start' });
  floorWrites.push(...(await Promise.all(round.map(() => post('/', '', {}, floor)))).map(timing));
  parentPort.postMessage({ burst: 'floor', at: 'end' });
}
agent.destroy();
parentPort.postMessage({ creates: created, accepts, floor: floorWrites });
