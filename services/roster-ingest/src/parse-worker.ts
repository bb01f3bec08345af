/**
 * A parse worker thread (see parse/pool.ts): reads one roster file per message, off the service's
 * event loop. Built to dist/parse-worker.mjs beside main.mjs.
 */
import { parentPort } from 'node:worker_threads';
import { RosterError } from './domain/calendar';
import { readRosterFile } from './domain/read-roster-file';
import type { ParseReply, ParseRequest } from './parse/pool';

parentPort!.on('message', ({ id, text, base }: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { id, ok: true, roster: readRosterFile(text, base) };
  } catch (error) {
    reply = error instanceof RosterError ? { id, ok: false, refusal: { type: error.type, message: error.message } } : { id, ok: false, crash: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(reply);
});
// Loaded: the pool starts counting a file's time limit only from here.
parentPort!.postMessage({ ready: true });
