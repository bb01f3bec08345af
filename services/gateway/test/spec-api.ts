/**
 * Reads the API tables of the two spec files (section 7 of each) into rows: method, path and the
 * body fields the row lists. The spec sits beside the repository in some checkouts only
 * (../shared/spec); where it does, the contract test checks every row is a route of the API
 * document and sends each row's fields. Prose the reader cannot understand is an error naming
 * the row, never a row quietly skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@crewswap/kit';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

export interface ApiRow {
  /** 'PATCH /api/trips/{id}/swappable', as the spec writes the path (query included). */
  key: string;
  method: Method;
  path: string;
  /** The body fields the row lists, in its order; empty when it lists none. */
  fields: string[];
  /** Fields listed inside a nested object, e.g. restore-pilot's `updatedData {password, emailVerified:false}`. */
  nested: Record<string, string[]>;
  /** Sent as a multipart form (the roster upload). */
  multipart: boolean;
  /** Which file and the spec's own words, for failure messages. */
  source: string;
}

/**
 * Where a row names its body in prose, the fields that prose stands for elsewhere in the spec.
 * A new phrase in a row fails the reader until it is added here.
 */
const PHRASES: Record<string, string[]> = {
  // pilot-app section 2 (Register tab) and section 5 (registration checks)
  'all registration fields': ['firstName', 'lastName', 'employeeId', 'phone', 'emailPrefix', 'rank', 'fleet', 'base', 'apic', 'ltc', 'usualReq', 'password', 'confirmPassword'],
  // admin section 5 (Pilot edit: the required fields) and the flags of the admin pilot view (section 3)
  'the pilot fields': ['employeeId', 'firstName', 'lastName', 'email', 'phone', 'rank', 'fleet', 'base', 'apic', 'ltc', 'usualReq', 'allVisible', 'testData'],
  // pilot-app section 3, crew link: the fields a pilot fills in
  'crew link fields': ['title', 'category', 'description', 'discountDetails', 'destinations', 'website', 'locationName', 'locationCoordinates', 'contactInfo'],
};

/** Words that, in a method's part of a row, mean "no body". */
const NO_BODY = new Set(['none', 'no body', 'like', 'unlike', 'delete', 'list']);

const FIELD = /^[a-z][A-Za-z0-9]*$/;

const specDir = (root: string) => join(root, '..', 'shared', 'spec');

/** Whether this checkout has the spec beside it; a plain clone does not. */
export const hasSpec = (root = repoRoot()): boolean => existsSync(join(specDir(root), 'pilot-app.md'));

export function readApiRows(root = repoRoot()): ApiRow[] {
  const spec = (name: string) => readFileSync(join(specDir(root), name), 'utf8');
  const rows = [...pilotAppRows(spec('pilot-app.md')), ...adminRows(spec('admin-and-platform.md'))];
  // Both files list a few of the same calls (GET /api/trips); one row each.
  const byKey = new Map<string, ApiRow>();
  for (const row of rows) if (!byKey.has(row.key)) byKey.set(row.key, row);
  return [...byKey.values()];
}

function section7(text: string, file: string): string[] {
  const start = text.indexOf('\n## 7.');
  const end = text.indexOf('\n## 8.', start);
  if (start < 0 || end < 0) throw new Error(`${file}: no section 7 ("## 7.") followed by section 8`);
  return text.slice(start, end).split('\n');
}

/** pilot-app.md section 7: a table of Method | Path | Payload / response. */
function pilotAppRows(text: string): ApiRow[] {
  const rows: ApiRow[] = [];
  for (const line of section7(text, 'pilot-app.md')) {
    if (!line.startsWith('| ') || /^\|\s*(Method|-+)\s*\|/.test(line)) continue;
    const [methodCell = '', pathCell = '', payloadCell = ''] = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const source = `pilot-app.md section 7: ${line}`;
    const methods = parseMethods(methodCell.split(','), source);
    const segments = payloadCell.split(';').map((segment) => segment.trim());
    for (const path of expandPaths(pathCell, source)) {
      methods.forEach((method, index) => {
        // 'GET, POST | ... | list; create': one part per method, in order.
        const own = methods.length > 1 && segments.length === methods.length ? segments[index]! : segments.find((s) => s.startsWith(`${method} `));
        const part = method === 'GET' ? '' : (own ?? segments[0] ?? '').replace(new RegExp(`^${method} `), '');
        rows.push({ key: `${method} ${path}`, method, path, ...readBody(part, source), source });
      });
    }
  }
  return rows;
}

/** '/api/trips ; /api/trips?includeCrew=true' is two paths; '/api/settings/{key} for a, b' one per key. */
function expandPaths(cell: string, source: string): string[] {
  return cell.split(';').flatMap((part) => {
    const [path = '', keys] = part.trim().split(/ for /);
    if (!path.startsWith('/api/')) throw new Error(`cannot read the path of ${source}`);
    if (keys === undefined) return [path];
    return keys.split(',').map((key) => path.replace('{key}', key.trim()));
  });
}

/**
 * admin-and-platform.md section 7: lists in prose, e.g. '- GET and POST /api/admin/excluded-airports
 * (body {iataCode}); DELETE /api/admin/excluded-airports/{id}.'
 */
function adminRows(text: string): ApiRow[] {
  const rows: ApiRow[] = [];
  const call = /\b((?:GET|POST|PUT|PATCH|DELETE)(?:(?:,| and) (?:GET|POST|PUT|PATCH|DELETE))*) (\/api\/[A-Za-z0-9_\-/{}?=&]+)/g;
  let previousBody: string[] = [];
  for (const line of section7(text, 'admin-and-platform.md')) {
    if (!line.startsWith('- ')) continue;
    const source = `admin-and-platform.md section 7: ${line}`;
    const matches = [...line.matchAll(call)];
    matches.forEach((match, index) => {
      const methods = parseMethods(match[1]!.split(/,| and /), source);
      const path = match[2]!.replace(/[.,]$/, '');
      // The words after the path, up to the next call on the same line.
      const clause = line.slice(match.index! + match[0].length, matches[index + 1]?.index ?? line.length);
      const listed = /body \{([^}]*)\}/.exec(clause)?.[1];
      let fields: string[] = [];
      if (listed !== undefined) fields = listed.split(',').map((field) => field.trim());
      else if (/with the pilot fields/.test(clause)) fields = PHRASES['the pilot fields']!;
      else if (/same body plus id/.test(clause)) fields = [...previousBody, 'id'];
      for (const field of fields) if (!FIELD.test(field)) throw new Error(`cannot read the field '${field}' in ${source}`);
      if (fields.length > 0) previousBody = fields;
      for (const method of methods) {
        const body = method === 'GET' || method === 'DELETE' ? [] : fields;
        rows.push({ key: `${method} ${path}`, method, path, fields: body, nested: {}, multipart: false, source });
      }
    });
  }
  return rows;
}

function parseMethods(words: string[], source: string): Method[] {
  return words.map((word) => {
    const method = word.trim();
    if (!(METHODS as readonly string[]).includes(method)) throw new Error(`cannot read the method '${method}' in ${source}`);
    return method as Method;
  });
}

/** One method's part of a pilot-app row: 'partial: a, b', 'email (prefix plus domain), password', ... */
function readBody(part: string, source: string): Pick<ApiRow, 'fields' | 'nested' | 'multipart'> {
  const text = part.replace(/^(partial:|any of)\s*/, '').trim();
  if (text === '' || NO_BODY.has(text) || /^(response|list of)\b/.test(text)) return { fields: [], nested: {}, multipart: false };
  const multipart = /^multipart field (\w+)$/.exec(text);
  if (multipart) return { fields: [multipart[1]!], nested: {}, multipart: true };
  const fields: string[] = [];
  const nested: Record<string, string[]> = {};
  for (const raw of splitTopLevel(text)) {
    const token = raw
      // the update's body is in its brackets: 'update (fields plus lastEditedBy)'
      .replace(/^update \((.*)\)$/, '$1')
      // a remark in brackets after a field is not a field: 'email (prefix plus domain)'
      .replace(/\s*\([^)]*\)/g, '')
      // crew links: 'create', and 'fields' of the update, are the crew link's fields
      .replace(/^(create|fields)\b/, 'crew link fields');
    for (const item of token.split(' plus ').map((words) => words.trim())) {
      const phrase = PHRASES[item];
      const object = /^(\w+) \{(.*)\}$/.exec(item);
      if (phrase) fields.push(...phrase);
      else if (object) {
        fields.push(object[1]!);
        nested[object[1]!] = object[2]!.split(',').map((inner) => inner.split(':')[0]!.trim());
      } else if (FIELD.test(item)) fields.push(item);
      else throw new Error(`cannot read '${raw}' as body fields in ${source}; add the phrase to PHRASES in spec-api.ts`);
    }
  }
  return { fields, nested, multipart: false };
}

/** Splits on commas outside braces and brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '{' || char === '(') depth += 1;
    if (char === '}' || char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
