import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { unavailable } from '@crewswap/kit';
import type { RosterErrorType } from '@crewswap/proto';
import type { Logger } from 'pino';
import { RosterError } from '../domain/calendar';
import type { ParsedRoster } from '../domain/parse-roster';

export interface ParseRequest {
  id: number;
  text: string;
  base: string | null;
}
export type ParseReply =
  | { id: number; ok: true; roster: ParsedRoster }
  | { id: number; ok: false; refusal: { type: RosterErrorType; message: string } }
  | { id: number; ok: false; crash: string };

// The service is stopping: the caller answers 503 and a mail is tried again by another worker.
const closedError = () => unavailable('The roster-ingest service is not available right now. Please try again shortly.');
// A 503: a mail refused this way is tried again later, and its worker slot goes to other pilots' mail.
export const OWNER_BUSY_MESSAGE = 'Your earlier roster is still being read. Please try again shortly.';

export interface ParseOptions {
  base: string | null | undefined;
  /** Whose file it is (the pilot): workers are shared out between owners, never all held by one. */
  owner: string;
  /**
   * false: refuse at once with OWNER_BUSY_MESSAGE while the owner's earlier file is waiting or
   * being read. A mail waiting here would hold one of the mail worker's few slots.
   */
  waitForOwner: boolean;
}

export interface ParsePool {
  /** Reads a roster file on a worker thread; refusals come back as the RosterError the parser threw. */
  parse(text: string, options: ParseOptions): Promise<ParsedRoster>;
  close(): Promise<void>;
}

interface Task {
  request: ParseRequest;
  owner: string;
  resolve(roster: ParsedRoster): void;
  reject(error: unknown): void;
}

/** Larger than any real roster (a busy month is tens of kilobytes): read with the workers' spare room only. */
export const LARGE_ROSTER_CHARS = 512 * 1024;
const isLarge = (task: Task) => task.request.text.length > LARGE_ROSTER_CHARS;

interface Slot {
  worker: Worker;
  ready: boolean;
  task?: Task;
  timer?: NodeJS.Timeout;
}

/**
 * The worker's code: the built `parse-worker.mjs` beside the bundle, or the TypeScript source
 * (tests, `npm start`), loaded through tsx's loader, which a worker does not inherit.
 */
function workerSource(): { code: string; eval: boolean } {
  const here = typeof __dirname !== 'undefined' ? __dirname : dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'parse-worker.mjs');
  if (existsSync(built)) return { code: built, eval: false };
  const source = pathToFileURL(join(here, '..', 'parse-worker.ts')).href;
  // tsx's ESM entry (require.resolve would give its CommonJS one, which cannot register hooks here).
  const manifest = createRequire(join(here, 'pool.ts')).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const tsx = pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
  return { code: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, eval: true };
}

/**
 * A few worker threads that parse roster files, so a huge or hostile calendar never holds up
 * `/healthz`, other pilots' uploads or the SMTP receiver. A parse that takes longer than
 * `timeoutMs` is refused and its worker replaced; each worker has its own heap limit, so a file
 * built to exhaust memory ends that worker, not the service. No owner holds more than all workers
 * but one, and a free worker takes the file of the owner it served longest ago, so however many
 * slow files one pilot sends, another pilot's roster finds a worker at once.
 */
export function startParsePool(options: { size: number; timeoutMs: number; log: Logger }): ParsePool {
  const source = workerSource();
  const queue: Task[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  // When each owner was last given a worker (a count, not a time): the longest unserved goes first.
  const lastServed = new Map<string, number>();
  let served = 0;
  let closed = false;

  const spawn = (): Slot => {
    const worker = new Worker(source.code, { eval: source.eval, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    // An idle worker must not keep a finished process (or a test run) alive.
    worker.unref();
    const slot: Slot = { worker, ready: false };
    worker.on('message', (reply: ParseReply | { ready: true }) => {
      if ('ready' in reply) {
        slot.ready = true;
        return dispatch();
      }
      const task = slot.task;
      if (!task || task.request.id !== reply.id) return;
      finish(slot);
      if (reply.ok) task.resolve(reply.roster);
      else if ('refusal' in reply) task.reject(new RosterError(reply.refusal.type, reply.refusal.message));
      else task.reject(new Error(`roster parse failed: ${reply.crash}`));
      dispatch();
    });
    worker.on('error', (error) => {
      options.log.error({ err: error }, 'a roster parse worker failed; starting another');
      replace(slot, error);
    });
    worker.on('exit', () => {
      if (!closed && slots.includes(slot)) replace(slot, new Error('roster parse worker exited'));
    });
    return slot;
  };

  const finish = (slot: Slot) => {
    const owner = slot.task?.owner;
    clearTimeout(slot.timer);
    slot.task = undefined;
    slot.timer = undefined;
    slot.worker.unref();
    // An owner with nothing left is forgotten: the map stays small, and its next file counts as long unserved.
    if (owner !== undefined && parsingFor(owner) === 0 && !queue.some((task) => task.owner === owner)) lastServed.delete(owner);
  };

  const replace = (slot: Slot, error: unknown) => {
    const task = slot.task;
    finish(slot);
    const index = slots.indexOf(slot);
    if (index !== -1) slots.splice(index, 1);
    void slot.worker.terminate();
    task?.reject(error);
    if (closed) return;
    slots.push(spawn());
    // The owner's place this file held may let an idle worker take one of its other files.
    dispatch();
  };

  // Files far larger than any real roster share all workers but one, and so does each owner's
  // files: however many arrive at once, a pilot's ordinary roster finds a worker at once.
  const allButOne = Math.max(1, options.size - 1);
  const parsingLarge = () => slots.filter((slot) => slot.task && isLarge(slot.task)).length;
  const parsingFor = (owner: string) => slots.filter((slot) => slot.task?.owner === owner).length;

  const pick = (): Task | undefined => {
    const canTakeLarge = parsingLarge() < allButOne;
    let best: Task | undefined;
    for (const task of queue) {
      if ((!canTakeLarge && isLarge(task)) || parsingFor(task.owner) >= allButOne) continue;
      // The queue is in arrival order, so among one owner's files the first waiting wins.
      if (!best || (lastServed.get(task.owner) ?? 0) < (lastServed.get(best.owner) ?? 0)) best = task;
    }
    return best;
  };

  const next = (slot: Slot) => {
    if (!slot.ready || slot.task) return;
    const task = pick();
    if (!task) return;
    queue.splice(queue.indexOf(task), 1);
    lastServed.set(task.owner, ++served);
    slot.task = task;
    // Busy: keep the process alive until the answer comes.
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      options.log.warn({ timeoutMs: options.timeoutMs }, 'a roster file took too long to parse; its worker is replaced');
      replace(slot, new RosterError('CALENDAR_TOO_COMPLEX'));
    }, options.timeoutMs);
    slot.worker.postMessage(task.request);
  };
  const dispatch = () => {
    for (const slot of slots) next(slot);
  };

  for (let i = 0; i < options.size; i += 1) slots.push(spawn());

  return {
    parse(text, { base, owner, waitForOwner }) {
      if (closed) return Promise.reject(closedError());
      if (!waitForOwner && (parsingFor(owner) > 0 || queue.some((task) => task.owner === owner))) return Promise.reject(unavailable(OWNER_BUSY_MESSAGE));
      return new Promise<ParsedRoster>((resolve, reject) => {
        queue.push({ request: { id: nextId++, text, base: base ?? null }, owner, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(closedError());
      await Promise.all(
        slots.splice(0).map((slot) => {
          slot.task?.reject(closedError());
          finish(slot);
          return slot.worker.terminate();
        }),
      );
    },
  };
}
