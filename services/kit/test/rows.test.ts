import { fromRow } from '../src';

describe('fromRow', () => {
  it('gives the named columns as camelCase fields, values untouched, and nothing else', () => {
    const createdAt = new Date('2026-11-01T12:00:00Z');
    const row = { id: 'a1', first_name: 'Ann', file_size_bytes: 12, created_at: createdAt, password_hash: 'secret' };
    expect(fromRow(row, ['id', 'first_name', 'file_size_bytes', 'created_at'])).toEqual({ id: 'a1', firstName: 'Ann', fileSizeBytes: 12, createdAt });
  });
});
