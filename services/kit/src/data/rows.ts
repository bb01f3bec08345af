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

/** Named columns as camelCase fields, a prefix (`p_` for a joined pilot) taken off their names. */
export type FromRow<R, K extends keyof R & string, P extends string = ''> = { [C in K as C extends `${P}${infer Rest}` ? CamelKey<Rest> : CamelKey<C>]: R[C] };

/**
 * The one way a repository turns a row into an object: the named columns, as camelCase fields,
 * values untouched. Only the named ones, so a column added later (or a `select *`) never slips
 * into an object that is published or answered. A column that needs converting (a Date to text,
 * a count Postgres sends as text) is written after it: `{ ...fromRow(row, [...]), createdAt: ... }`.
 * With a prefix (`p_` for a joined table's columns), the prefix is taken off each name.
 */
export function fromRow<R extends object, K extends keyof R & string, P extends string = ''>(row: R, columns: readonly K[], prefix = '' as P): FromRow<R, K, P> {
  const object: Record<string, unknown> = {};
  for (const column of columns) object[camelKey(column.startsWith(prefix) ? column.slice(prefix.length) : column)] = row[column];
  return object as FromRow<R, K, P>;
}
