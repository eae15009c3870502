/**
 * `node scripts/hook.mjs doctor [--json]` (and `/openviking:doctor`): one
 * command that tells a user whether the plugin can work here and, for every
 * problem, exactly what to set or run.
 *
 * Checks run in parallel and every network call is short (a hanging server
 * costs one request timeout, not a minute), so the whole report takes a few
 * seconds at most. Exit code 1 when any check failed (bad arguments are the
 * command line's, hook/cli.ts), 0 otherwise; `--json` prints the same report as JSON for scripts. Never
 * throws: an unexpected error becomes a failed check.
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import { withTimeout } from '../util/withTimeout.js';
import { clientFor, loadStageConfig } from '../session/stageContext.js';
import { adoptStrandedWrites, type AdoptResult } from '../store/adopt.js';
import { resolveDataDir, storeLayout } from '../store/paths.js';
import { PLUGIN_VERSION, USER_AGENT } from '../version.js';
import { checkActivity } from './activityCheck.js';
import { checkCommitPolicy } from './commitPolicyCheck.js';
import { checkConfig } from './configCheck.js';
import { pluginOptionWarnings } from './optionsCheck.js';
import { checkHooks } from './hooksCheck.js';
import type { RunProgram } from './hooksCheck.js';
import { checkDataDir, checkQueue } from './localCheck.js';
import { checkMcp } from './mcpCheck.js';
import { checkResident } from './residentCheck.js';
import { checkDuplicates } from './duplicatesCheck.js';
import { checkProject } from './projectCheck.js';
import { checkQueueTargets } from './queueTargetCheck.js';
import { checkTrust } from './trustCheck.js';
import { resolveWorkspace } from '../session/workspace.js';
import { createNodeDoctorIo } from './nodeIo.js';
import type { DoctorIo } from './nodeIo.js';
import { renderJson, renderText } from './render.js';
import { checkServer } from './serverCheck.js';
import type { Check, DoctorReport } from './types.js';
import { errorMessage } from '../util/errors.js';
import { counted } from '../util/plural.js';

/** `/health`'s longest wait: a server that does not answer it is told fast. */
export const DOCTOR_HEALTH_TIMEOUT_MS = 1_500;
/**
 * A data call's longest wait (identity's search, the MCP handshake, the commit policy). Longer than
 * /health's: the search embeds its query through the server's embedding provider, and a real
 * server's first search for an account opens its index (0.5.2: 0.1-0.5 s idle, over 1.5 s on a
 * loaded 2-core machine, where a 1.5 s limit made doctor warn about a healthy server).
 */
export const DOCTOR_REQUEST_TIMEOUT_MS = 3_500;
/** No request starts after this much time; the network part of the report is done by then. */
export const DOCTOR_NETWORK_BUDGET_MS = 6_000;
/** The whole report, whatever hangs (a stuck file system included). */
export const DOCTOR_TOTAL_BUDGET_MS = 8_000;

/** What the command line parsed for `doctor` (hook/commands.ts). */
export interface DoctorOptions {
  /** `--json`: the report as JSON, for scripts. */
  json: boolean;
}

/**
 * @param options - the command's flags, parsed by the command line.
 * @param deps - the same outside world the stages get.
 * @param io - stdout and the one child process; the real ones by default.
 * @returns the process exit code.
 */
export async function runDoctor(
  options: DoctorOptions,
  deps: StageDeps,
  io: DoctorIo = createNodeDoctorIo(),
): Promise<number> {
  const report = await buildDoctorReport(deps, io.runProgram);
  await io.write(options.json ? renderJson(report) : renderText(report));
  return report.ok ? 0 : 1;
}

/** Every check, in reading order. Never rejects. */
export async function buildDoctorReport(deps: StageDeps, runProgram: RunProgram): Promise<DoctorReport> {
  const timedOut: Check = {
    id: 'doctor',
    title: 'Doctor',
    status: 'fail',
    lines: [`the checks did not finish within ${DOCTOR_TOTAL_BUDGET_MS} ms`],
    fix: 'Run doctor again with OPENVIKING_DEBUG=1 and read the debug log.',
  };
  let checks: Check[];
  const startedAt = deps.now();
  try {
    checks = await withTimeout(runChecks(deps, runProgram), DOCTOR_TOTAL_BUDGET_MS, [timedOut]);
  } catch (error) {
    deps.log.warn('doctor failed', { error: errorMessage(error) });
    checks = [{ ...timedOut, lines: [`the doctor itself failed: ${errorMessage(error)}`] }];
  }
  // The debug log (OPENVIKING_DEBUG) gets each verdict and the machine-readable facts behind it (no secret: `data` holds none).
  for (const check of checks)
    deps.log.debug('doctor check', { id: check.id, status: check.status, ...(check.data ?? {}) });
  deps.log.debug('doctor done', {
    ms: deps.now() - startedAt,
    failed: checks.filter((check) => check.status === 'fail').length,
  });
  return { ok: checks.every((check) => check.status !== 'fail'), version: PLUGIN_VERSION, checks };
}

async function runChecks(deps: StageDeps, runProgram: RunProgram): Promise<Check[]> {
  // Run from a shell or a slash command, doctor gets no plugin-option variables: it reads where the CLI stores them.
  const config = loadStageConfig(deps, { readStoredOptions: true });
  const startedAt = deps.now();
  const deadlineAt = startedAt + DOCTOR_NETWORK_BUDGET_MS;
  const client = clientFor(config, deps, DOCTOR_REQUEST_TIMEOUT_MS, deadlineAt);
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  const folder = resolveWorkspace({}, deps.env, deps.cwd);

  const network = (async () => {
    const server = await checkServer(config, client, deps.now, deps.env, DOCTOR_HEALTH_TIMEOUT_MS);
    const left = deadlineAt - deps.now();
    const mcp: Check =
      server.health && left > 0
        ? await checkMcp({
            config,
            where: { workspace: folder, homeDir: deps.homeDir },
            http: deps.http,
            userAgent: USER_AGENT,
            timeoutMs: Math.min(DOCTOR_REQUEST_TIMEOUT_MS, left),
            now: deps.now,
          })
        : {
            id: 'mcp',
            title: 'MCP endpoint',
            status: 'info',
            lines: [`not checked: ${server.health ? 'out of time' : 'the server is unreachable'}`],
          };
    const commitPolicy = await checkCommitPolicy(
      dataDir,
      client,
      config.settings,
      server.health !== undefined && deadlineAt - deps.now() > 0,
    );
    return { server, mcp, commitPolicy };
  })();
  const [{ server, mcp, commitPolicy }, dataDirCheck, activity, hooks] = await Promise.all([
    network,
    checkDataDir(deps.env, deps.homeDir),
    checkActivity(dataDir, startedAt, config.credentials.baseUrl),
    checkHooks(deps.pluginRoot, runProgram),
  ]);
  const adopted = adoptStrandedWrites(dataDir, deps.env, deps.homeDir, startedAt);
  const queue = withAdoption(
    await checkQueue(deps.env, deps.homeDir, startedAt, server.server.status === 'pass'),
    adopted,
  );
  const queueTargets = await checkQueueTargets(config, storeLayout(dataDir).queueDir, startedAt);
  return [
    checkConfig(config, deps.homeDir, pluginOptionWarnings(deps.env, deps.homeDir, deps.pluginRoot)),
    checkProject(config, folder, deps.homeDir, startedAt),
    ...optionalCheck(checkTrust(config, folder, deps.homeDir, startedAt)),
    server.server,
    ...(server.identity ? [server.identity] : []),
    mcp,
    dataDirCheck,
    queue,
    ...optionalCheck(queueTargets),
    activity,
    commitPolicy,
    checkResident(deps, config.settings),
    hooks,
    checkDuplicates(deps.env, deps.homeDir, deps.pluginRoot, config.settings, folder),
  ];
}

/** A check shown only when it has something to say. */
function optionalCheck(check: Check | undefined): Check[] {
  return check === undefined ? [] : [check];
}

/** The queue check, saying where writes an earlier install left elsewhere came from (DESIGN D21). */
function withAdoption(queue: Check, adopted: AdoptResult): Check {
  if (adopted.moved === 0) return queue;
  return {
    ...queue,
    lines: [
      ...queue.lines,
      `moved ${counted(adopted.moved, 'queued write')} here from ${adopted.from.join(', ')} (an earlier install's data directory)`,
    ],
  };
}
