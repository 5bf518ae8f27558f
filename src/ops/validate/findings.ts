import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { EventName } from '../../hooks/events.js';

/**
 * What one kind's validator finds (hooks file, plugin, marketplace, registry), before validate.ts
 * applies `--strict` and sets `ok`.
 */
export interface KindFindings {
  events: EventName[];
  diagnostics: Diagnostic[];
  /** Kinds marketplace and registry: the names of the valid plugins listed. */
  plugins?: string[];
}
