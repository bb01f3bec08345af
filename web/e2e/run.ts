/**
 * Runs the end-to-end tests against a running stack:
 *   BASE_URL=http://127.0.0.1:8080 MAIL_OUTBOX_DIR=/path/to/outbox npm run test:e2e -w @crewswap/web
 * The stack (all services and the gateway serving web/dist) is started by scripts/stack.ts.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

for (const name of ['BASE_URL', 'MAIL_OUTBOX_DIR']) {
  if (!process.env[name]) {
    console.error(`${name} must be set`);
    process.exit(2);
  }
}
const dir = new URL('.', import.meta.url).pathname;
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.e2e.ts'))
  .map((name) => `${dir}${name}`);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
