/**
 * The JSON documents of `search`, `info` and `registry list` (docs/reference/cli-json.md) call
 * what was read from the cache only, because the network was off (D5), by the flag's name. The
 * one place that name is given: `cacheOnly` becomes that key, in the same position; every other
 * key and value is kept.
 */
export function withFlagNames<T extends { cacheOnly: unknown }>(
  value: T,
): Omit<T, 'cacheOnly'> & Record<'offline', T['cacheOnly']> {
  const entries = Object.entries(value).map(([key, v]) => [
    key === 'cacheOnly' ? 'offline' : key,
    v,
  ]);
  return Object.fromEntries(entries) as Omit<T, 'cacheOnly'> & Record<'offline', T['cacheOnly']>;
}
