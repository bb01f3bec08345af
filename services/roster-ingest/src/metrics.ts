import { Counter, Histogram, type Registry } from 'prom-client';

/** Roster imports for the dashboards and the failed-imports alert; roster address fetches (issue 56). */
export function createRosterMetrics(registry: Registry) {
  const imports = new Counter({
    name: 'roster_ingest_imports_total',
    help: 'Roster imports by source (upload, email, subscription) and result (processed, failed)',
    labelNames: ['source', 'result'] as const,
    registers: [registry],
  });
  for (const source of ['upload', 'email', 'subscription']) for (const result of ['processed', 'failed']) imports.inc({ source, result }, 0);
  const fetches = new Counter({
    name: 'roster_ingest_fetches_total',
    help: 'Roster address fetches by result (imported, not_modified, failed)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  for (const result of ['imported', 'not_modified', 'failed']) fetches.inc({ result }, 0);
  const failures = new Counter({
    name: 'roster_ingest_fetch_failures_total',
    help: 'Roster address fetches that failed, by reason (address, private, redirects, timeout, too_large, status, unreachable)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const fetchDuration = new Histogram({
    name: 'roster_ingest_fetch_duration_seconds',
    help: 'Time a roster address takes to fetch, from the name lookup to the last byte',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
    registers: [registry],
  });
  return { imports, fetches, failures, fetchDuration };
}
export type RosterMetrics = ReturnType<typeof createRosterMetrics>;
