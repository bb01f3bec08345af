import { z } from 'zod';
import { HttpError, parse } from '../src';

describe('parse', () => {
  it('refuses text with a NUL character (Postgres cannot store it) as a 400 naming the field', () => {
    const schema = z.object({ name: z.string(), tags: z.array(z.string()) });
    expect(parse(schema, { name: 'Amy', tags: ['a'] })).toEqual({ name: 'Amy', tags: ['a'] });
    for (const input of [{ name: 'A\u0000my', tags: [] }, { name: 'Amy', tags: ['ok', '\u0000'] }]) {
      try {
        parse(schema, input);
        throw new Error('expected a 400');
      } catch (error) {
        expect(error).toBeInstanceOf(HttpError);
        expect((error as HttpError).status).toBe(400);
        expect((error as HttpError).message).toBe('Text cannot contain NUL characters.');
      }
    }
  });
});
