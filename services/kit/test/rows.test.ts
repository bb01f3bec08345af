import { camelRow } from '../src/rows';

describe('camelRow', () => {
  it('names each column as proto names the field, keeping the values as they are', () => {
    const created = new Date('2026-11-01T12:00:00Z');
    expect(camelRow({ id: 'g1', flight_no_start: 'VS003', invite_link: null, created_by_pilot_id: 'p1', created_at: created })).toEqual({
      id: 'g1',
      flightNoStart: 'VS003',
      inviteLink: null,
      createdByPilotId: 'p1',
      createdAt: created,
    });
  });

  it("with a prefix, takes only the joined table's columns, without the prefix", () => {
    const row = { id: 't1', pilot_id: 'p1', flight_no_start: 'VS003', p_id: 'p1', p_first_name: 'Amy', p_ltc: false };
    expect(camelRow(row, 'p_')).toEqual({ id: 'p1', firstName: 'Amy', ltc: false });
  });
});
