import { constants } from 'node:buffer';
import { AGENTS } from '../../agents/agents.js';
import { agentDeadlineSec, type Agent, type AgentId, type WireAnswer } from '../../agents/agent.js';
import { isPlainObject } from '../../json/describe-value.js';
import { nestsDeeperThan } from '../../json/nesting-depth.js';
import { refusedPayload, type PayloadRefusal } from '../../engine/fail-closed.js';
import { stopHookActiveOf } from '../../engine/stop-hook-active.js';
import { BLOCKING_EVENTS } from '../../hooks/fail-closed-entry.js';
import { isClaudeCodeEvent, type EventName } from '../../hooks/events.js';
import type { HandlerSet } from '../../hooks/snapshot/snapshot-match.js';
import { removePin, writeStopCount } from '../../store/session-pins.js';
import type { StorePaths } from '../../store/store-paths.js';
import { openHost } from '../steps/host/host.js';
import { handlersDeadline } from './agent-deadline.js';
import { foreignEventAnswer } from './foreign-event.js';
import { planPinnedEvent } from './event-plan.js';
import { updateAnnouncement } from './update-announcement.js';

export interface WireOptions {
  agent: AgentId;
  /**
   * What the agent wrote to the handler's stdin: one JSON object. Null: more than hookpm can read
   * (cli/stdio.ts readStdinBytes), answered as a payload that is not a JSON object.
   */
  stdin: string | null;
  /**
   * engine.md B5: the agent's bytes are not UTF-8; `stdin` is their text with replacement
   * characters, read only to learn the event, which runs nothing.
   */
  notUtf8?: boolean;
  store: StorePaths;
  /**
   * The hookpm home `store` is of (`--home`, HOOKPM_HOME); undefined: the platform's directories.
   * What a command hookpm starts in the background is given, so that it works on the same store.
   */
  hookpmHome?: string;
  /** The handler's environment: what plugin handlers inherit, less secrets (X5). */
  env: Readonly<Record<string, string | undefined>>;
  /** The handler's working directory: where the agent started hookpm. */
  cwd: string;
  /** The user's home directory: where handlers run when no other directory can be used. */
  home: string;
  /**
   * The agent's deadline for this handler: `seconds` (`wire --deadline`; null: a link that names
   * none, LINK_TIMEOUT_SEC) from `startedAt`, a `performance.now()` value (0: this process's
   * start). Absent: no deadline but each handler's own.
   */
  deadline?: { seconds: number | null; startedAt: number };
  /**
   * plugins.md G3: `wire claude --background`, the link entry Claude Code runs in the background:
   * only the plugins' background handlers of the event run (answer-background.ts).
   */
  background?: boolean;
}

/**
 * `hookpm wire <agent>`, the handler `hookpm link` writes: one agent event through the engine over
 * hookpm's enabled plugins only (the agent runs its own user and project hooks itself), on the
 * session's pin (session-pin.ts), answered in the agent's format. A Stop continuation count is
 * kept in the pin (engine.md O3); SessionEnd releases the pin. An event the agent's link does not
 * cover is answered with nothing, but for another agent's blocking event, which fails closed
 * (B10: a link copied into another agent's settings). A payload that is not a JSON object (or too
 * long to read) is exit 1, which the agents report as a non-blocking hook error; one that is not
 * UTF-8 runs nothing (B5), as one nested too deep.
 *
 * Handlers run in the payload's `cwd`, or where event-cwd.ts says when it cannot be used, with
 * the reason as a note of the dispatch (its result and its log line). With `deadline`, every
 * handler is ended before the agent's deadline (agent-deadline.ts), and hookpm answers with what
 * finished (cli.md W1, W2). What cannot run as consented fails closed
 * (docs/reference/rules/engine.md#fail-closed): the pin's entries and the pinned plugins about to
 * run whose trees changed. A payload nested deeper than MAX_DEPTH levels runs nothing: a blocking
 * event gets its blocking answer, another exit 1 with the reason.
 */
export async function answerWireEvent(options: WireOptions): Promise<WireAnswer> {
  const agent = AGENTS[options.agent];
  if (options.stdin === null)
    return unreadPayload(
      agent,
      `longer than hookpm can read (${constants.MAX_STRING_LENGTH} bytes)`,
    );
  let payload: unknown;
  try {
    payload = JSON.parse(options.stdin);
  } catch {
    payload = null;
  }
  if (!isPlainObject(payload)) return unreadPayload(agent, 'not a JSON object');
  const named = payload['hook_event_name'];
  if (options.background === true) {
    const { answerBackgroundEvent } = await import('./answer-background.js');
    return answerBackgroundEvent(options, agent.id, payload);
  }
  if (agent.id === 'claude' && typeof named === 'string' && isClaudeCodeEvent(named)) {
    const { answerClaudeCodeWireEvent } = await import('./answer-claude-code-event.js');
    return answerClaudeCodeWireEvent(options, named, payload);
  }
  const decoded = agent.decode(payload);
  if (decoded === null) return foreignEventAnswer(agent, payload);
  const { event, input } = decoded;
  const aliases =
    decoded.matcherAliases === undefined ? {} : { matcherAliases: decoded.matcherAliases };
  // engine.md B5: refused before the pin, the matchers or the payload builder walk it.
  if (options.notUtf8 === true) return refusePayload(agent, event, input, 'not_utf8');
  if (nestsDeeperThan(payload)) return refusePayload(agent, event, input, 'too_deep');
  const seconds = agentDeadlineSec(agent, event, options.deadline?.seconds ?? null);
  const by =
    options.deadline === undefined
      ? undefined
      : handlersDeadline(options.deadline.startedAt, seconds);
  const { pin, stored, cwd, notes, snapshot, running, checked } = await planPinnedEvent(options, {
    agent: agent.id,
    event,
    payload,
    input,
    which: handlerSet(agent.id),
    ...aliases,
    by,
  });
  const continuationCount = event === 'Stop' ? pin.stopContinuations : 0;
  // X5's pass-through and the decision log (settings.json): every event is logged, one that
  // matches nothing too (docs/guides/decision-log.md); a missing file is one failed open.
  const failClosed = [...(pin.failClosed ?? []), ...checked.failClosed];
  const host = openHost({
    snapshot,
    store: options.store,
    source: `wire:${agent.id}`,
    ...(failClosed.length === 0 ? {} : { failClosed }),
  });
  const result = await host.dispatch(event, input, {
    handlers: handlerSet(agent.id),
    ...aliases,
    cwd,
    home: options.home,
    continuationCount,
    env: options.env,
    ...(agent.display === undefined ? {} : { display: agent.display }),
    ...(notes === undefined ? {} : { notes }),
    ...(by === undefined ? {} : { deadline: by }),
  });
  if (stored && event === 'Stop') {
    const next = result.continueLoop ? continuationCount + 1 : 0;
    if (next !== pin.stopContinuations)
      await writeStopCount(options.store, pin, next).catch(() => undefined);
  }
  if (stored && event === 'SessionEnd') await removePin(options.store, pin.sessionId);
  // The pin's own diagnostics (rejected matchers, ...) are told once, at the start of the session.
  const told = event === 'SessionStart' ? pin.diagnostics : [];
  // Updates waiting, from the last check (no network): told once, at the start of the session.
  const update =
    event === 'SessionStart'
      ? updateAnnouncement(options.store, pin, options.env, options.hookpmHome)
      : null;
  return agent.encode({
    ...result,
    ...(update === null ? {} : { systemMessages: [...result.systemMessages, update] }),
    diagnostics: [
      ...told,
      ...checked.diagnostics,
      // A settings file that cannot be used is told where a handler ran, not at every event.
      ...(running.size > 0 ? host.settingsDiagnostics : []),
      ...result.diagnostics,
    ],
  });
}

/** plugins.md G3: Claude Code runs the background handlers through its background link entry. */
function handlerSet(agent: AgentId): HandlerSet {
  return agent === 'claude' ? 'claude' : 'engine';
}

/** A payload that cannot be used: exit 1, which the agents report as a non-blocking hook error. */
function unreadPayload(agent: Agent, what: string): WireAnswer {
  return {
    exitCode: 1,
    stdout: '',
    stderr: `hookpm: ${agent.name} sent a payload that is ${what}\n`,
  };
}

/**
 * A payload refused (refusedPayload): on a blocking event its blocking answer; on another, exit 1
 * with the reason, which the agents report as a non-blocking hook error. A Stop is continued only
 * when the agent's payload says no Stop hook continues it already (`stop_hook_active`, B2): the
 * pin's count is not read for a payload refused before the pin.
 */
function refusePayload(
  agent: Agent,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  refusal: PayloadRefusal,
): WireAnswer {
  const stop = { continuationCount: 0, stopHookActive: stopHookActiveOf(event, input, 0) };
  const result = refusedPayload(event, '', refusal, stop);
  if (BLOCKING_EVENTS.has(event)) return agent.encode(result);
  return { exitCode: 1, stdout: '', stderr: `hookpm: ${result.diagnostics[0]!.message}\n` };
}
