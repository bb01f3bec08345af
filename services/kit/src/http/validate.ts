import type { z } from 'zod';
import { HttpError } from './errors';

/**
 * No request needs more than a few levels of nesting. A body nested thousands deep is refused
 * before anything walks it: a recursive walk (ours, zod's, a logger's) would exhaust the stack.
 */
export const MAX_INPUT_DEPTH = 32;
export const TOO_DEEP_MESSAGE = `The request is nested too deeply (at most ${MAX_INPUT_DEPTH} levels of objects and lists).`;

/**
 * Whether JSON text opens more than `max` objects or lists inside each other. A single pass over
 * the characters, so it is safe on any input, and cheap next to JSON.parse.
 */
export function jsonNestedDeeperThan(text: string, max = MAX_INPUT_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Parses outside input with its proto schema. A failure is a 400 whose `error` is the first
 * problem in words a person can act on and whose `fields` names every field that is wrong.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const found = inspect(input);
  if (found === TOO_DEEP) return failWith(TOO_DEEP_MESSAGE, { _: 'Nested too deeply' });
  // Postgres text cannot hold U+0000: let it through and the query fails with a 500.
  if (found !== undefined) return failWith('Text cannot contain NUL characters.', { [found || '_']: 'Contains a NUL character' });
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

const TOO_DEEP = Symbol('too deep');

/**
 * Walks the input with a stack of its own rather than recursion, in field order: TOO_DEEP past
 * MAX_INPUT_DEPTH, else the path of the first text (value or key) holding a NUL, else undefined.
 */
function inspect(input: unknown): string | typeof TOO_DEEP | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: input, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return TOO_DEEP;
    const entries = Object.entries(value);
    if (entries.some(([key]) => key.includes('\u0000'))) return path;
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i]!;
      pending.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
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
