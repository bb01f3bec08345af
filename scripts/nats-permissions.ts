/**
 * Writes deploy/helm/crewswap/files/nats-permissions.json, each service's NATS permissions as
 * proto defines them (proto/src/nats-permissions.ts), which the chart's NATS configuration reads.
 * Run: npm run nats-permissions   (deploy/test/nats-users.test.ts fails while the file is stale)
 */
import { writeFileSync } from 'node:fs';
import { repoPath } from '@crewswap/kit';
import { natsPermissionsFile } from '@crewswap/proto';

const file = repoPath('deploy', 'helm', 'crewswap', 'files', 'nats-permissions.json');
writeFileSync(file, natsPermissionsFile());
console.log(`wrote ${file}`);
