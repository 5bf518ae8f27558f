// Types for the two files of undici that http-client.ts imports by path: undici's own types, which
// describe them as members of its index.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** undici's Dispatcher.prototype.request, called on a dispatcher. */
  function request(
    this: Dispatcher,
    opts: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
  export default request;
}
