/*
 * The input side of `hookpm session` (session-rpc.ts): request lines cut from the text read,
 * bounded in length, held while the replies cannot be written.
 */

/** What createLineSplitter hands lines to, and when it stops or waits. */
export interface LineSink {
  onLine(line: string): void;
  /** A line longer than `maxLength` ended: its text was dropped as it came. */
  onOverlong(): void;
  /** After `end`, every line (the last one without its newline too) was handed on. */
  onEnd(): void;
  stopped(): boolean;
  /** The output is full: the lines read wait, in order, until `pump` is called. */
  blocked(): boolean;
  maxLength: number;
}

/** The line splitter: text in, lines out to the sink. */
export interface LineSplitter {
  push(chunk: string): void;
  /** Hands on the lines waiting, as long as the sink is not blocked. */
  pump(): void;
  /** End of input: the last line, then `onEnd`, once the lines before it are handed on. */
  end(): void;
  /** Lines are waiting for the sink: read no more input until they are handed on. */
  holding(): boolean;
}

/**
 * Cuts text chunks into lines for `onLine`; once `stopped()`, the rest is dropped unread. While
 * `blocked()`, lines wait in the chunk they came in (the caller pauses the input, so at most one
 * chunk waits) and `pump` hands them on later: a host that stops reading the replies stops the
 * session reading its requests, and no reply is made that it could only hold in memory. Each chunk
 * is searched once and a line's pieces are joined once, when its end arrives: a line costs time in
 * proportion to its length, however many chunks it comes in. A line past `maxLength` is not kept
 * (memory stays bounded, and no string longer than Node can hold is made): its end calls
 * `onOverlong` instead.
 */
export function createLineSplitter(sink: LineSink): LineSplitter {
  let pieces: string[] = [];
  let size = 0;
  let overlong = false;
  let held = '';
  let at = 0;
  let ended = false;
  let done = false;
  const keep = (piece: string): void => {
    if (overlong || piece === '') return;
    if (size + piece.length > sink.maxLength) {
      overlong = true;
      pieces = [];
      return;
    }
    pieces.push(piece);
    size += piece.length;
  };
  const emit = (): void => {
    if (overlong) sink.onOverlong();
    else sink.onLine(pieces.join(''));
    pieces = [];
    size = 0;
    overlong = false;
  };
  const pump = (): void => {
    for (;;) {
      if (sink.stopped()) {
        held = '';
        at = 0;
        pieces = [];
        return;
      }
      const end = held.indexOf('\n', at);
      if (end === -1) break;
      if (sink.blocked()) return;
      keep(held.slice(at, end));
      emit();
      at = end + 1;
    }
    keep(held.slice(at));
    held = '';
    at = 0;
    if (!ended || done) return;
    done = true;
    if (pieces.length > 0 || overlong) emit();
    pieces = [];
    sink.onEnd();
  };
  return {
    push(chunk) {
      held = at < held.length ? held.slice(at) + chunk : chunk;
      at = 0;
      pump();
    },
    pump,
    end() {
      ended = true;
      pump();
    },
    holding: () => held !== '',
  };
}
