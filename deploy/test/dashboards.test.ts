import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createMetrics } from '@crewswap/kit';
import { chartValues, GRAFANA, ROOT, serviceFolders } from './repo';

interface Panel { title: string; targets?: { expr: string }[]; panels?: Panel[] }
interface Dashboard { uid: string; title: string; panels: Panel[] }
interface Rule { alert: string; expr: string; labels?: Record<string, string>; annotations?: Record<string, string> }

const dashboardFiles = readdirSync(join(GRAFANA, 'dashboards')).filter((file) => file.endsWith('.json'));
const dashboards = dashboardFiles.map((file) => JSON.parse(readFileSync(join(GRAFANA, 'dashboards', file), 'utf8')) as Dashboard);
const rules = (parse(readFileSync(join(GRAFANA, 'alerts.yaml'), 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
const awaited = JSON.parse(readFileSync(join(GRAFANA, 'awaited-metrics.json'), 'utf8')) as Record<string, { service: string; until?: string } | string>;
interface ExportedMetric { exporter: string; enabledBy: string; image: string; since: string; source: string }
const exported = JSON.parse(readFileSync(join(GRAFANA, 'exporter-metrics.json'), 'utf8')) as Record<string, ExportedMetric | string>;
/** A histogram is read through its series: its _bucket, _sum and _count name the metric. */
const metricOf = (series: string) => series.replace(/_(bucket|sum|count)$/, '');
/** A value of the chart's values.yaml by its dotted path. */
const valueAt = (path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], chartValues());

/** Whether release a (e.g. 0.17.3 or v0.17.3) is b or newer. */
const releaseAtLeast = (a: string, b: string) => {
  const [x, y] = [a, b].map((release) => release.replace(/^v/, '').split('.').map(Number));
  const order = x!.map((part, index) => part - (y![index] ?? 0)).find((difference) => difference !== 0);
  return (order ?? 0) >= 0;
};

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'le', 'inf', 'nan']);

/** The metric names a PromQL expression reads: identifiers left once strings, matchers, ranges and groupings are gone. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter((match) => !match[2] && !KEYWORDS.has(match[1]!.toLowerCase()))
    .map((match) => match[1]!);
  return [...new Set(names)];
}

const panelsOf = (panels: Panel[]): Panel[] => panels.flatMap((panel) => [panel, ...panelsOf(panel.panels ?? [])]);
const dashboardExprs = dashboards.flatMap((dashboard) => panelsOf(dashboard.panels).flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)));
const allExprs = [...dashboardExprs, ...rules.map((rule) => rule.expr)];

/** Every .ts file under services/<name>/src. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/**
 * Metric names some service registers: the kit's registry as createMetrics builds it (HTTP
 * histogram and Node's default metrics, read from a real registry), plus every
 * `new Counter|Gauge|Histogram|Summary({ name: '...' })` in a service's source.
 */
async function registeredMetrics(): Promise<Set<string>> {
  const names = new Set<string>();
  const kit = createMetrics('deploy-test');
  for (const metric of await kit.registry.getMetricsAsJSON()) names.add(metric.name);
  for (const dir of readdirSync(join(ROOT, 'services'))) {
    if (!existsSync(join(ROOT, 'services', dir, 'src'))) continue;
    for (const file of sources(join(ROOT, 'services', dir, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/new (Counter|Gauge|Histogram|Summary)\(\{\s*name:\s*'([a-zA-Z_:][a-zA-Z0-9_:]*)'/g)) names.add(match[2]!);
    }
  }
  // A histogram is read through its series.
  for (const name of [...names]) for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  return names;
}

describe('dashboards and alerts', () => {
  test.each(dashboardFiles)('dashboard %s parses, with a uid, a title and a query in every panel', (file) => {
    const dashboard = dashboards[dashboardFiles.indexOf(file)]!;
    expect(dashboard.uid).toMatch(/^crewswap-/);
    expect(dashboard.title).toBeTruthy();
    for (const panel of panelsOf(dashboard.panels)) expect((panel.targets ?? []).length).toBeGreaterThan(0);
  });

  test('dashboard uids are unique', () => {
    expect(new Set(dashboards.map((dashboard) => dashboard.uid)).size).toBe(dashboards.length);
  });

  test('alert rules parse, each with a name, an expression, a severity and a summary', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.alert).toMatch(/^CrewSwap/);
      expect(rule.expr.trim()).not.toBe('');
      expect(['page', 'ticket']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toBeTruthy();
    }
  });

  test('the dashboards cover what the platform asks for', () => {
    const read = new Set(allExprs.flatMap(metricNames));
    for (const name of ['http_request_duration_seconds_bucket', 'nats_consumer_pending_messages', 'outbox_unpublished_events', 'realtime_sse_connections', 'notifications_push_sent_total', 'notifications_push_failed_total', 'roster_ingest_imports_total', 'auth_login_failures_total']) {
      expect(read).toContain(name);
    }
  });

  test('every metric a dashboard or alert names is registered by some service, or awaited from one being built', async () => {
    const registered = await registeredMetrics();
    const folders = new Set(serviceFolders());
    const missing = [...new Set(allExprs.flatMap(metricNames))]
      .filter((name) => name !== 'up' && !registered.has(name))
      .filter((name) => {
        const exporter = exported[name];
        if (exporter && typeof exporter !== 'string') return valueAt(exporter.enabledBy) !== true;
        const entry = awaited[name] ?? awaited[metricOf(name)];
        if (!entry || typeof entry === 'string') return true;
        // Awaited from a service not built yet, or from a feature of an existing one not built yet.
        return folders.has(entry.service) && !entry.until;
      });
    expect(missing).toEqual([]);
  });

  test('every exporter metric a dashboard or alert reads is published by the exporter release the chart pins', () => {
    const exporterMetrics = [...new Set(allExprs.flatMap(metricNames))].filter((name) => typeof exported[name] === 'object');
    expect(exporterMetrics).toEqual(expect.arrayContaining(['nats_stream_total_bytes', 'nats_stream_limit_bytes']));
    for (const name of exporterMetrics) {
      const { image, since, source } = exported[name] as ExportedMetric;
      expect(source).toMatch(/^https:\/\//);
      const pinned = valueAt(image);
      expect({ name, pinned: typeof pinned === 'string' && /^v?\d+\.\d+\.\d+$/.test(pinned) }).toEqual({ name, pinned: true });
      expect({ name, pinned, publishes: releaseAtLeast(pinned as string, since) }).toEqual({ name, pinned, publishes: true });
    }
  });

  test('release order: a newer or equal release publishes what an older one added', () => {
    expect(releaseAtLeast('0.17.3', '0.17.0')).toBe(true);
    expect(releaseAtLeast('v0.17.0', '0.17.0')).toBe(true);
    expect(releaseAtLeast('0.16.0', '0.17.0')).toBe(false);
    expect(releaseAtLeast('0.9.1', '0.17.0')).toBe(false);
    expect(releaseAtLeast('1.0.0', '0.17.0')).toBe(true);
  });

  test('every awaited or exported metric is one a dashboard or alert reads', () => {
    const read = new Set(allExprs.flatMap(metricNames).flatMap((name) => [name, metricOf(name)]));
    for (const name of [...Object.keys(awaited), ...Object.keys(exported)].filter((key) => key !== '//')) expect(read).toContain(name);
  });

  test('metric names are found in PromQL as written', () => {
    expect(metricNames('histogram_quantile(0.95, sum by (service, le) (rate(http_request_duration_seconds_bucket{service=~"$service"}[5m])))')).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('max by (stream, durable) (nats_consumer_pending_messages + nats_consumer_ack_pending_messages) > 1000')).toEqual(['nats_consumer_pending_messages', 'nats_consumer_ack_pending_messages']);
  });
});
