import { dirname } from 'node:path';
import { HookpmError } from '../../errors.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import { isEventName, type EventName } from '../../hooks/events.js';
import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import { readHooksFile } from '../../workspace/read-hooks-file.js';
import { statPathKind, type PathKind } from '../../workspace/path-kind.js';
import { isMarketplacePath, validateMarketplace } from './marketplace.js';
import { validatePluginDir } from './plugin.js';
import { isRegistryPath, validateRegistryDir } from './registry.js';
import type { KindFindings } from './findings.js';
import { agentCompatWarnings } from './agent-compat.js';
import { clip } from '../../text/clip.js';

export type ValidateKind = 'hooks' | 'plugin' | 'marketplace' | 'registry';

export interface ValidateDiagnostic {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** The file, or `<file>:<JSON path>` inside it. */
  path: string;
}

/** `hookpm validate --json` (docs/reference/rules/cli.md#json-shapes). */
export interface ValidateReport {
  ok: boolean;
  kind: ValidateKind;
  /** Engine events with at least one runnable handler, in declaration order. */
  events: EventName[];
  diagnostics: ValidateDiagnostic[];
  /** Kinds marketplace and registry: the names of the valid plugins listed. */
  plugins?: string[];
}

export interface ValidateOptions {
  path: string;
  /** Warnings count as errors. */
  strict: boolean;
}

interface KindValidator {
  kind: ValidateKind;
  /** Whether this validator handles the path; the first that does wins. */
  accepts(path: string, pathKind: PathKind): boolean;
  run(path: string): Promise<KindFindings>;
}

/** The validators, tried in order. Plugin, marketplace and registry kinds are added here. */
const VALIDATORS: readonly KindValidator[] = [
  { kind: 'registry', accepts: isRegistryPath, run: validateRegistryDir },
  { kind: 'marketplace', accepts: isMarketplacePath, run: validateMarketplace },
  { kind: 'hooks', accepts: (_path, pathKind) => pathKind === 'file', run: validateHooksFile },
  {
    kind: 'plugin',
    accepts: (_path, pathKind) => pathKind === 'directory',
    run: validatePluginDir,
  },
];

export async function validate(options: ValidateOptions): Promise<ValidateReport> {
  const pathKind = await statPathKind(options.path);
  if (pathKind === 'missing') {
    throw new HookpmError(
      'E_NOT_FOUND',
      `nothing to validate: ${clip(options.path)} does not exist`,
      {
        hint: 'Give the path of a hooks.json file.',
        file: options.path,
      },
    );
  }
  const validator = VALIDATORS.find((v) => v.accepts(options.path, pathKind));
  if (validator === undefined) {
    throw new HookpmError(
      'E_USAGE',
      `cannot validate ${options.path}: expected a hooks.json file, found a ${pathKind}`,
      {
        hint: 'Give the path of a hooks.json file, for example hooks/hooks.json.',
        file: options.path,
      },
    );
  }
  const findings = await validator.run(options.path);
  const diagnostics = findings.diagnostics.map((d) => toValidateDiagnostic(d, options));
  return {
    ok: diagnostics.every((d) => d.severity !== 'error'),
    kind: validator.kind,
    events: findings.events,
    diagnostics,
    ...(findings.plugins === undefined ? {} : { plugins: findings.plugins }),
  };
}

function toValidateDiagnostic(d: Diagnostic, options: ValidateOptions): ValidateDiagnostic {
  const severity = d.severity === 'error' || options.strict ? 'error' : 'warning';
  return { severity, code: d.code, message: d.message, path: d.path ?? options.path };
}

/**
 * A hooks file is validated as a user or project file would load (legacy shapes migrate, C4),
 * plus everything the snapshot checks (matchers E4/E5, `if` rules F3), plus C3 unknown keys.
 */
async function validateHooksFile(file: string): Promise<KindFindings> {
  const read = await readHooksFile({ file, origin: 'user', legacy: true });
  if (read.status === 'missing') return { events: [], diagnostics: [] };
  if (read.status === 'failed') return { events: [], diagnostics: [read.diagnostic] };
  const config = read.parsed.config;
  if (config === null) return { events: [], diagnostics: read.diagnostics };
  const snapshot = buildSnapshot({
    projectDir: dirname(file),
    sources: [{ origin: 'user', file, config }],
  });
  const hooked = new Set(snapshot.handlers.map((h) => h.event));
  const declared = Object.keys(config).filter(isEventName);
  return {
    events: declared.filter((e) => hooked.has(e)),
    diagnostics: [
      ...read.diagnostics,
      ...snapshot.diagnostics,
      ...agentCompatWarnings(read.parsed.declared),
    ],
  };
}
