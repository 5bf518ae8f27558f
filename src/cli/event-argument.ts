import { HookpmError } from '../errors.js';
import { EVENT_NAMES, isEventName, type EventName } from '../hooks/events.js';
import { closestNames, didYouMean } from '../text/did-you-mean.js';
import { clip } from '../text/clip.js';

/**
 * An event name given on the command line (`run <Event>`, `test <plugin> <Event>`, `init --event
 * <Event>`), or E_USAGE listing the twelve, with the nearest in its hint and its `suggestions`
 * (docs/design/decisions.md#where-the-rules-are-silent). `option` names the option it came from,
 * for the message.
 */
export function eventArgument(name: string, option?: string): EventName {
  if (isEventName(name)) return name;
  const near = didYouMean(name, EVENT_NAMES);
  const from = option === undefined ? '' : `${option}: `;
  throw new HookpmError(
    'E_USAGE',
    `${from}unknown event ${JSON.stringify(clip(name))}: expected one of ${EVENT_NAMES.join(', ')}`,
    {
      expected: EVENT_NAMES,
      found: name,
      suggestions: closestNames(name, EVENT_NAMES),
      hint:
        near === null
          ? 'Event names are case-sensitive, e.g. PreToolUse, Stop.'
          : `${near} Event names are case-sensitive.`,
    },
  );
}
