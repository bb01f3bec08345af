import { SUBJECTS } from '@crewswap/proto';
import type { Executor, Outbox } from '../src';
import { pushToEach } from '../src/events/push';

describe('pushToEach', () => {
  const recording = () => {
    const inserts: { subject: string; pilotIds: string[]; dedupeKeys: string[] }[] = [];
    const outbox = {
      writeMany: async (_trx: Executor, subject: string, items: { data: { pilotId: string; dedupeKey: string } }[]) => {
        inserts.push({ subject, pilotIds: items.map((item) => item.data.pilotId), dedupeKeys: items.map((item) => item.data.dedupeKey) });
        return [];
      },
    } as unknown as Outbox;
    return { outbox, inserts };
  };
  const pilotIds = (count: number) => Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

  it('asks for one push per pilot, in order, each with its own dedupe key, in inserts of at most 1000 rows', async () => {
    const { outbox, inserts } = recording();
    const ids = pilotIds(2500);
    await pushToEach(outbox, {} as Executor, ids, { kind: 'swap_offer', title: 'New swap offer', body: 'VS003', url: '/' }, (pilotId) => `offer:${pilotId}`);
    expect(inserts.map((insert) => insert.pilotIds.length)).toEqual([1000, 1000, 500]);
    expect(inserts.every((insert) => insert.subject === SUBJECTS.sendPush)).toBe(true);
    expect(inserts.flatMap((insert) => insert.pilotIds)).toEqual(ids);
    expect(inserts.flatMap((insert) => insert.dedupeKeys)).toEqual(ids.map((id) => `offer:${id}`));
  });

  it('writes nothing for nobody', async () => {
    const { outbox, inserts } = recording();
    await pushToEach(outbox, {} as Executor, [], { kind: 'whatsapp_group', title: 't', body: 'b' }, () => 'k');
    expect(inserts).toEqual([]);
  });
});
