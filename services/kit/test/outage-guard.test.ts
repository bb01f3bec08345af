/**
 * Issue 51: no service exits on a database error. runService installs serveThroughOutages; each
 * case runs in a process of its own (the handlers are the process's), as a service does.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

jest.setTimeout(30_000);

const guard = pathToFileURL(join(__dirname, '..', 'src', 'outage-guard.ts')).href;

/** Runs `trouble` (module code) in a process with the guard installed; how it ended and what it wrote. */
function runWithGuard(trouble: string): Promise<{ code: number | null; out: string; err: string }> {
  const script = `
    import pino from 'pino';
    import { serveThroughOutages } from ${JSON.stringify(guard)};
    serveThroughOutages(pino({ base: null }));
    ${trouble}
    setTimeout(() => process.stdout.write('still serving\\n'), 300);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('a running service and a dependency outage', () => {
  it.each([
    ['Postgres shutting down, rejected with nobody waiting', `Promise.reject(Object.assign(new Error('the database system is shutting down'), { code: '57P03' }));`],
    [
      'a pg connection refused, its connect never awaited',
      `import pg from 'pg';
       const server = (await import('node:net')).createServer().listen(0, '127.0.0.1');
       await new Promise((ready) => server.once('listening', ready));
       const { port } = server.address();
       server.close();
       void new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:' + port + '/nothing' }).connect();`,
    ],
    [
      "a connection's error event with no listener",
      `import { EventEmitter } from 'node:events';
       setTimeout(() => new EventEmitter().emit('error', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), 10);`,
    ],
  ])('%s: logged with the dependency, and the process serves on', async (_name, trouble) => {
    const { code, out } = await runWithGuard(trouble);
    expect(out).toContain('still serving');
    expect(out).toMatch(/"dependency":"database"/);
    expect(code).toBe(0);
  });

  it('a bug still ends the process, with its reason on stderr', async () => {
    const { code, out, err } = await runWithGuard(`Promise.reject(new TypeError("Cannot read properties of undefined (reading 'id')"));`);
    expect(out).not.toContain('still serving');
    expect(err).toContain("unhandled rejection: TypeError: Cannot read properties of undefined (reading 'id')");
    expect(code).toBe(1);
  });
});
