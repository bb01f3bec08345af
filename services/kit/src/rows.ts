type CamelKey<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelKey<Tail>>}` : S;

/** A row type with its snake_case columns as camelCase fields: `{ created_at: Date }` → `{ createdAt: Date }`. */
export type Camel<R> = { [K in keyof R & string as CamelKey<K>]: R[K] };

const camelKeys = new Map<string, string>();
const camelKey = (column: string): string => {
  let key = camelKeys.get(column);
  if (key === undefined) {
    key = column.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
    camelKeys.set(column, key);
  }
  return key;
};

/**
 * The one way a repository turns a row into an object: the named columns, as camelCase fields,
 * values untouched. Only the named ones, so a column added later (or a `select *`) never slips
 * into an object that is published or answered. A column that needs converting (a Date to text,
 * a count Postgres sends as text) is written after it: `{ ...fromRow(row, [...]), createdAt: ... }`.
 */
export function fromRow<R extends object, K extends keyof R & string>(row: R, columns: readonly K[]): Camel<Pick<R, K>> {
  const object: Record<string, unknown> = {};
  for (const column of columns) object[camelKey(column)] = row[column];
  return object as Camel<Pick<R, K>>;
}
