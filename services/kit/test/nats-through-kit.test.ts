/**
 * Every NATS publish and every read goes through the kit (issue 52): the events toolkit, direct
 * channels, rpc. There each message is checked against its `proto` schema and carries or
 * continues its trace; a service that used the connection itself (`bus.nc`, `bus.js`,
 * `bus.jsm`, or the `nats` package) would skip both. Tests may use them to set a scene.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '@crewswap/kit';
import { sourceFilesUnder } from '@crewswap/kit-testing';

const root = repoRoot();

/** The lines of `source` that use a NATS connection or the `nats` package (a type import is only a name). */
function natsUses(source: string): string[] {
  return source.split('\n').filter((line) => /\b(?:nc|js|jsm)\.[a-zA-Z]/.test(line) || /^\s*import\s+(?!type\b)[^;]*\bfrom\s*['"]nats['"]/.test(line)).map((line) => line.trim());
}

describe('NATS only through the kit', () => {
  it('sees a publish, a subscription, a consumer of its own and an import of nats, and lets a type import be', () => {
    const source = [
      'deps.bus.nc.publish(deps.bus.subject(realtimePilotSubject(pilotId)), JSON.stringify(message));',
      'const subscription = bus.nc.subscribe(subject, { callback });',
      'const info = await bus.jsm.consumers.add(stream, { name });',
      "import { AckPolicy, DeliverPolicy } from 'nats';",
      "import type { Subscription } from 'nats';",
      "publishDirect(deps.bus, DIRECT.realtimePilot(pilotId), message);",
    ].join('\n');
    expect(natsUses(source)).toHaveLength(4);
  });

  it('finds no publish or read of NATS outside the kit in any service or script', () => {
    const services = readdirSync(join(root, 'services'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'kit');
    const files = [...services.flatMap(({ name }) => sourceFilesUnder(join(root, 'services', name, 'src'))), ...sourceFilesUnder(join(root, 'scripts'))];
    const uses = files.flatMap((file) => natsUses(readFileSync(file, 'utf8')).map((line) => `${relative(root, file)}: ${line}`));
    expect(services.length).toBeGreaterThan(5);
    expect(uses).toEqual([]);
  });
});
