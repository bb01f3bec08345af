import { fromRow } from '../src';

describe('fromRow', () => {
  it('gives the named columns as camelCase fields, values untouched, and nothing else', () => {
    const createdAt = new Date('2026-11-01T12:00:00Z');
    const row = { id: 'a1', first_name: 'Ann', file_size_bytes: 12, created_at: createdAt, password_hash: 'secret' };
    expect(fromRow(row, ['id', 'first_name', 'file_size_bytes', 'created_at'])).toEqual({ id: 'a1', firstName: 'Ann', fileSizeBytes: 12, createdAt });
  });

  it("with a prefix, names a joined table's columns without it", () => {
    const row = { id: 't1', pilot_id: 'p1', p_id: 'p1', p_first_name: 'Amy', p_ltc: false };
    expect(fromRow(row, ['p_id', 'p_first_name', 'p_ltc'], 'p_')).toEqual({ id: 'p1', firstName: 'Amy', ltc: false });
  });
});
