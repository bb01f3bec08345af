/**
 * Runs the web app's end-to-end tests (web/e2e/*.e2e.ts) in Debian's Chromium against the real
 * system: it starts every service and the gateway (serving web/dist) with scripts/stack.ts on its
 * own database, NATS prefix, ports and mail folder, runs the journeys, then stops it all and drops
 * the database. It lives here, not in web/, so that the web app never reaches server code.
 *   npm run build -w @crewswap/web && npm run test:e2e
 * REPLICAS=2 runs two processes of every service behind the gateway (as `make up REPLICAS=2`).
 * With BASE_URL and MAIL_OUTBOX_DIR set, it runs against that stack instead.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, uniqueName } from '@crewswap/kit-testing';
import { replicasFrom, startStack } from './stack';

const dir = new URL('../web/e2e/', import.meta.url).pathname;
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.e2e.ts'))
  // E2E_ONLY=crew-links runs only the files whose names contain it (one journey while working on it);
  // E2E_ONLY=admin-console,screens runs several, in the usual order, on one stack.
  .filter((name) => !process.env.E2E_ONLY || process.env.E2E_ONLY.split(',').some((part) => name.includes(part)))
  .map((name) => join(dir, name));

async function main(): Promise<number> {
  if (process.env.BASE_URL && process.env.MAIL_OUTBOX_DIR) return runJourneys(process.env);
  const database = await createTestDatabase();
  const mailDir = mkdtempSync(join(tmpdir(), 'crewswap-e2e-mail-'));
  const port = 21000 + Math.floor(Math.random() * 400) * 10;
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  try {
    stack = await startStack({
      databaseUrl: database.url,
      natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      natsPrefix: uniqueName('web_e2e'),
      gatewayPort: port,
      basePort: port,
      mailDir,
      seedDemo: false,
      replicas: replicasFrom(process.env),
      logs: process.env.E2E_LOGS ? 'prefix' : 'silent',
      // The browser test's push service listens on 127.0.0.1 (web/e2e/pushService.ts).
      env: { LOG_LEVEL: 'warn', TESTING_BUTTON_ENABLED: 'false', PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' },
    });
    const code = await runJourneys({ ...process.env, BASE_URL: `http://localhost:${port}`, MAIL_OUTBOX_DIR: mailDir });
    // Each service ran as its own NATS user: a refused publish or subscription fails the run.
    const violations = stack.natsViolations();
    if (violations.length > 0) console.error(`NATS refused a service outside its permissions (proto/src/nats-permissions.ts):\n${violations.join('\n')}`);
    return violations.length > 0 ? 1 : code;
  } finally {
    await stack?.stop();
    await database.drop();
  }
}

function runJourneys(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], { stdio: 'inherit', env });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
