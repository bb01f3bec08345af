import type { z } from 'zod';
import { HttpError } from './errors';

/**
 * Parses outside input with its proto schema. A failure is a 400 whose `error` is the first
 * problem in words a person can act on and whose `fields` names every field that is wrong.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // Postgres text cannot hold U+0000: let it through and the query fails with a 500.
  const nul = findNul(input);
  if (nul !== undefined) return failWith('Text cannot contain NUL characters.', { [nul || '_']: 'Contains a NUL character' });
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.') || '_';
    fields[path] ??= describeIssue(issue);
  }
  const first = result.error.issues[0];
  const message = first ? describeIssue(first) : 'Invalid request';
  return failWith(message, fields);
}

function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = findNul(item, path ? `${path}.${key}` : key) ?? (key.includes('\u0000') ? path : undefined);
    if (found !== undefined) return found;
  }
  return undefined;
}

function failWith(message: string, fields: Record<string, string>): never {
  throw new HttpError(400, message, { fields });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') return `Unknown field(s): ${issue.keys.join(', ')}`;
  // zod's own default texts start with "Invalid input"; name the field so a person can fix it.
  if (issue.message.startsWith('Invalid input') || issue.message.startsWith('Expected')) {
    return field ? `${field}: ${issue.message}` : issue.message;
  }
  return issue.message;
}
