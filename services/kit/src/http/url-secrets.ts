import { API_ROUTES } from '@crewswap/proto';

const MASK = '[redacted]';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Paths whose `{token}` is a key: a calendar feed's private address is all it takes to read a
 * pilot's roster, which is why only its hash is stored. Taken from the route table, so a new
 * route with a token in its path is covered without a second list.
 */
const SECRET_PATHS = API_ROUTES.filter((route) => route.path.includes('{token}')).map((route) => {
  const [before, after] = route.path.split('{token}') as [string, string];
  const other = (text: string) => escapeRegExp(text).replace(/\\\{\w+\\\}/g, '[^/?]+');
  return { prefix: before.split('{')[0]!, pattern: new RegExp(`^(${other(before)})[^/?]+(${other(after)})(?=$|\\?)`) };
});

/** A signed link's `token` query parameter (the digest's unsubscribe) acts alone, without a login. */
const TOKEN_QUERY = /([?&]token=)[^&#]*/g;

/**
 * A request's url as access lines and traces keep it: the keys some urls carry are masked, so
 * that whoever reads the logs or Tempo cannot use them. Most urls have none and pass unchanged.
 */
export function urlWithoutSecrets(url: string): string {
  let safe = url;
  if (url.includes('token=')) safe = safe.replace(TOKEN_QUERY, `$1${MASK}`);
  for (const { prefix, pattern } of SECRET_PATHS) {
    if (safe.startsWith(prefix)) safe = safe.replace(pattern, `$1${MASK}$2`);
  }
  return safe;
}
