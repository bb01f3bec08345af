/** `first_name` -> `firstName`, as a type. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** A row's columns under proto's camelCase names; with a prefix, only the columns that carry it, without it. */
export type CamelRow<R, P extends string = ''> = { [K in keyof R & string as K extends `${P}${infer Rest}` ? Camel<Rest> : never]: R[K] };

const camelNames = new Map<string, string>();
function camel(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

/**
 * A row as the object proto names, field for column (`first_name` -> `firstName`), so that a
 * repository does not copy its columns out one line each. Every column the query returns
 * becomes a field: a repository selects the columns its type names, never more. With a prefix
 * (`p_` for a joined pilot), only the columns that carry it, without it.
 */
export function camelRow<R extends object, P extends string = ''>(row: R, prefix = '' as P): CamelRow<R, P> {
  const fields: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith(prefix)) fields[camel(column.slice(prefix.length))] = value;
  }
  return fields as CamelRow<R, P>;
}
