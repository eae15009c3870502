/**
 * The doctor's real outside world beyond `StageDeps`: stdout (awaited, so a
 * process exit right after cannot cut the report short on a pipe) and one
 * bounded child process (the prefilter check).
 *
 * @module
 */
import { spawn } from 'node:child_process';
import type { RunProgram } from './hooksCheck.js';

export interface DoctorIo {
  write(text: string): Promise<void>;
  runProgram: RunProgram;
}

export function createNodeDoctorIo(): DoctorIo {
  return {
    write: (text) => new Promise((resolve) => process.stdout.write(text, () => resolve())),
    runProgram: runBounded,
  };
}

function runBounded(
  file: string,
  args: readonly string[],
  stdin: string,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
    child.stdin.on('error', () => undefined); // the prefilter may exit before reading everything
    child.stdin.end(stdin);
  });
}
