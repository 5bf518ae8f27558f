/** Diagnostics of docs/reference/rules/engine.md#diagnostics: the runtime never fails on configuration, it says why. */
export type DiagnosticCode =
  | 'config_read_failed'
  | 'invalid_config'
  | 'unknown_key'
  | 'legacy_deprecated'
  | 'legacy_migrated'
  | 'legacy_unmapped'
  | 'plugin_hooks_failed'
  | 'plugin_tampered'
  | 'plugin_state_unreadable'
  | 'failed_closed'
  | 'payload_too_deep'
  | 'payload_not_utf8'
  | 'invalid_matcher'
  | 'unsafe_matcher'
  | 'unsupported_matcher'
  | 'invalid_if'
  | 'invalid_command'
  | 'launch_failed'
  | 'confinement_unavailable'
  | 'timeout'
  | 'nonzero_exit'
  | 'invalid_output'
  | 'malformed_json'
  | 'stdout_truncated'
  | 'stderr_truncated'
  | 'unsupported_field'
  | 'unsupported_block'
  | 'mismatched_output'
  | 'ignored_stop_reason'
  | 'additional_stop_reason'
  | 'output_capped'
  | 'continuation_cap'
  | 'continuation_guard'
  | 'duplicate_document'
  | 'byte_order_mark'
  | 'duplicate_key'
  | 'trust_store_missing'
  | 'trust_store_invalid'
  | 'trust_not_stored'
  | 'project_untrusted'
  | 'project_changed'
  | 'invalid_manifest'
  | 'ignored_manifest'
  | 'invalid_plugin_name'
  | 'invalid_marketplace'
  | 'invalid_marketplace_entry'
  | 'marketplace_source_missing'
  | 'invalid_registry_index'
  | 'command_argv_differ'
  | 'ignored_field'
  | 'cwd_unusable'
  | 'invalid_terminal_sequence'
  | 'argv_without_command'
  | 'unpublishable_version'
  | 'plugin_tree_invalid'
  | 'unknown_notification_type'
  | 'linked_surface_changed';

export type Severity = 'error' | 'warning' | 'info';

export type Origin = 'project' | 'user' | 'plugin';

export interface Diagnostic {
  code: DiagnosticCode;
  message: string;
  severity: Severity;
  /** Handler id `<Event>:<group>:<handler>` (engine.md R2), when one handler is concerned. */
  handler?: string;
  origin?: Origin;
  /** Plugin id, for plugin sources. */
  plugin?: string;
  /** `<file>:hooks.<Event>[g].hooks[h]` or another JSON path into the named file. */
  path?: string;
}

export function diagnostic(
  code: DiagnosticCode,
  severity: Severity,
  message: string,
  where: Omit<Diagnostic, 'code' | 'severity' | 'message'> = {},
): Diagnostic {
  return { code, severity, message, ...where };
}
