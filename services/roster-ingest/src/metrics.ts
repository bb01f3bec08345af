import { Counter, type Registry } from 'prom-client';

/** Roster imports for the dashboards and the failed-imports alert. */
export function createRosterMetrics(registry: Registry) {
  const imports = new Counter({
    name: 'roster_ingest_imports_total',
    help: 'Roster imports by source (upload, email) and result (processed, failed)',
    labelNames: ['source', 'result'] as const,
    registers: [registry],
  });
  for (const source of ['upload', 'email']) for (const result of ['processed', 'failed']) imports.inc({ source, result }, 0);
  return { imports };
}
export type RosterMetrics = ReturnType<typeof createRosterMetrics>;
