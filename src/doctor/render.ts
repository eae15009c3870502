/**
 * The doctor's two outputs: a plain-text report for people (and for the
 * model, which explains it in `/openviking:doctor`), and JSON for scripts.
 * Plain text on purpose: no colour codes, so it reads the same in a
 * terminal, a pipe and a slash command's captured output; and no template
 * tag the host could evaluate (protocol/commandOutput.ts).
 *
 * @module
 */
import { inertForCommand } from '../protocol/commandOutput.js';
import type { CheckStatus, DoctorReport } from './types.js';
import { counted } from '../util/plural.js';

const MARK: Record<CheckStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', info: 'INFO' };

export function renderText(report: DoctorReport): string {
  const out = [`OpenViking doctor (openviking-codebuddy ${report.version})`, ''];
  for (const check of report.checks) {
    out.push(`[${MARK[check.status]}] ${check.title}`);
    for (const line of check.lines) out.push(`       ${line}`);
    if (check.fix) out.push(`       fix: ${check.fix}`);
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
  return inertForCommand(`${out.join('\n')}\n`);
}

export function renderJson(report: DoctorReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
