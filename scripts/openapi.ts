/**
 * Writes docs/openapi.json, the API reference built from proto's route catalogue, so that a
 * change to the API shows in review. The gateway serves the same document at /api/docs.
 * Run: npm run openapi   (services/gateway/test/api-docs.test.ts fails while the file is stale)
 */
import { writeFileSync } from 'node:fs';
import { apiDocumentText } from '@crewswap/gateway';
import { repoPath } from '@crewswap/kit';

const file = repoPath('docs', 'openapi.json');
writeFileSync(file, apiDocumentText());
console.log(`wrote ${file}`);
