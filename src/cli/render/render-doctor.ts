import { redact } from '../../errors.js';
import type { DoctorCheck, DoctorReport } from '../../ops/doctor/check.js';
import { bold, colourEnabled } from './colour.js';
import { terminalWidth } from '../stdio.js';
import { escapeControl, printJson, printLine } from './render.js';
import { wrapText } from './wrap.js';

const MARKS: Readonly<Record<DoctorCheck['status'], string>> = {
  ok: '✓',
  warning: '!',
  error: '✗',
};

const COLOURS: Readonly<Record<DoctorCheck['status'], string>> = {
  ok: '\u001b[32m',
  warning: '\u001b[33m',
  error: '\u001b[31m',
};

/**
 * `hookpm doctor` output: with --json the report (credentials redacted, N5); otherwise one line per
 * check (mark, name, message) with its fix indented below, then a summary line. Every line is
 * escaped (messages carry plugin ids, sources and paths).
 */
export function printDoctorReport(report: DoctorReport, json: boolean): void {
  const checks = report.checks.map(redactCheck);
  if (json) return printJson({ ok: report.ok, checks });
  const colour = colourEnabled();
  const width = terminalWidth(1);
  for (const check of checks) {
    const name = escapeControl(check.name);
    const mark = colour
      ? `${COLOURS[check.status]}${MARKS[check.status]}\u001b[39m`
      : MARKS[check.status];
    // Wrapped as plain text (the hanging indent under the name), then the mark and name coloured.
    const [first = '', ...more] = wrapText(
      `${MARKS[check.status]} ${name}: ${escapeControl(check.message)}`,
      width,
      2,
    );
    const lead = `${MARKS[check.status]} ${name}:`;
    printLine([`${mark} ${bold(name, colour)}:${first.slice(lead.length)}`, ...more].join('\n'));
    if (check.fix === undefined) continue;
    const [fix = '', ...rest] = check.fix.split('\n');
    printLine(wrapText(`    fix: ${escapeControl(fix)}`, width, 9).join('\n'));
    for (const line of rest)
      printLine(wrapText(`         ${escapeControl(line)}`, width, 9).join('\n'));
  }
  printLine(summary(checks));
}

function summary(checks: readonly DoctorCheck[]): string {
  const errors = checks.filter((c) => c.status === 'error').length;
  const warnings = checks.filter((c) => c.status === 'warning').length;
  if (errors === 0 && warnings === 0) return `no problems found (${checks.length} checks)`;
  const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${count(errors, 'error')}, ${count(warnings, 'warning')} (${checks.length} checks)`;
}

function redactCheck(check: DoctorCheck): DoctorCheck {
  return {
    ...check,
    message: redact(check.message),
    ...(check.fix === undefined ? {} : { fix: redact(check.fix) }),
  };
}
