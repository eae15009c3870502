/**
 * The doctor's two outputs: a plain-text report for people (and for the
 * model, which explains it in `/openviking:doctor`), and JSON for scripts.
 * Plain text on purpose: no colour codes, so it reads the same in a
 * terminal, a pipe and a slash command's captured output; and no template
 * tag the host could evaluate (protocol/commandOutput.ts). Its facts carry
 * the server's words (version, errors, identities), so both outputs go
 * through the printable filter (util/printable.ts): nothing a server sends
 * can drive the terminal, and no fact can start a line of its own.
 *
 * @module
 */
import { inertForCommand } from '../protocol/commandOutput.js';
import { printable, printableLine } from '../util/printable.js';
import type { CheckStatus, DoctorReport } from './types.js';
import { counted } from '../util/plural.js';

const MARK: Record<CheckStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', info: 'INFO' };

export function renderText(report: DoctorReport): string {
  const out = [`OpenViking doctor (openviking-codebuddy ${report.version})`, ''];
  for (const check of report.checks) {
    out.push(`[${MARK[check.status]}] ${printableLine(check.title)}`);
    for (const line of check.lines) out.push(`       ${printableLine(line)}`);
    if (check.fix) out.push(`       fix: ${printableLine(check.fix)}`);
  }
  const failed = report.checks.filter((check) => check.status === 'fail');
  const warned = report.checks.filter((check) => check.status === 'warn');
  out.push('');
  if (failed.length > 0)
    out.push(
      `${counted(failed.length, 'problem')} to fix: ${failed.map((check) => check.title).join(', ')}. Start with the first FAIL above.`,
    );
  else if (warned.length > 0)
    out.push(`Working, with ${counted(warned.length, 'warning')}: ${warned.map((check) => check.title).join(', ')}.`);
  else out.push('All checks passed.');
  return inertForCommand(printable(`${out.join('\n')}\n`));
}

/** JSON escapes C0 controls itself; DEL, C1, bidi and tag characters it writes raw, so they go. */
export function renderJson(report: DoctorReport): string {
  return printable(`${JSON.stringify(report, null, 2)}\n`);
}
