/**
 * The two parts of undici that hookpm uses: its connection pool (`Agent`) and one request on it.
 * They are imported from their own files, not from the package's index: the index loads all of
 * undici (fetch, WebSocket, EventSource, caches, mocks), and its cookie helpers read
 * `globalThis.Headers`, which makes Node load its own copy of undici as well, at the start of every
 * command that goes to the network (docs/design/benchmarks.md, "A command that goes to the network:
 * undici's own files, and nothing it does not use"). undici's version is pinned; a file it moves
 * fails the build and the tests.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import requestOn from 'undici/lib/api/api-request.js';

export { Agent };

/** The options of one request, less where it goes (`request` takes that from the URL). */
export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** One request for `url` on `dispatcher`, as undici's `request(url, {dispatcher, ...})` makes it. */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  opts: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return requestOn.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
  });
}
