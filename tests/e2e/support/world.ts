/**
 * One scenario's world: the fake model, the seeded OpenViking test server, a
 * CLI sandbox, and the environment that points the real plugin (this
 * repository, built) at that server with its debug log on. Scenarios create
 * it in beforeAll and dispose it in afterAll; disposal kills every process
 * the scenario started.
 *
 * @module
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { ModelCall, ModelScript } from './chat-types.js';
import { lastUserText } from './chat-types.js';
import type { PluginSource } from './cli.js';
import { startFakeModel, type FakeModel } from './fake-model.js';
import { describeSessions, startSeededOpenViking, type OvServer } from './openviking.js';
import { REPO_ROOT } from './repo.js';
import { createCliSandbox, type CliSandbox } from './sandbox.js';

export interface E2eWorld {
  model: FakeModel;
  ov: OvServer;
  sandbox: CliSandbox;
  /** Env for the CLI so hooks and the MCP proxy reach the test server. */
  pluginEnv: Record<string, string>;
  /** The plugin loaded from the repository root via --plugin-dir. */
  repoPlugin: PluginSource;
  /** The plugin's debug log (OPENVIKING_DEBUG_LOG), or '' when none was written. */
  pluginDebugLog(): string;
  /** Everything useful when an assertion fails: model calls, OV sessions, logs. */
  evidence(): string;
  dispose(): Promise<void>;
}

/** Throws the build output when global setup could not build the plugin. */
export function requirePluginBuild(): void {
  const problem = inject('pluginBuildError');
  if (problem) throw new Error(problem);
}

/** One line per model call, for failure messages. */
export function summarizeCall(call: ModelCall): string {
  const last = call.messages[call.messages.length - 1];
  return `#${call.seq} ${call.purposeHeader} tools=${call.toolNames.length} last=${last?.role}: ${lastUserText(call).slice(-300).replace(/\s+/g, ' ')}`;
}

/** The plugin's side of a world: the env pointing it at the test server, and its debug log. */
export function pluginSide(
  ov: OvServer,
  root: string,
): { pluginEnv: Record<string, string>; pluginDebugLog: () => string } {
  const debugLog = join(root, 'openviking-debug.log');
  return {
    pluginEnv: { OPENVIKING_URL: ov.url, OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: debugLog },
    pluginDebugLog: () => {
      try {
        return readFileSync(debugLog, 'utf8');
      } catch {
        return ''; // the plugin wrote nothing
      }
    },
  };
}

/** The failure-message sections every world shares: model calls, OpenViking sessions and requests, the plugin's log. */
export function evidenceSections(calls: ModelCall[], ov: OvServer, pluginDebugLog: string): string[] {
  return [
    `model calls:\n${calls.map(summarizeCall).join('\n')}`,
    `openviking sessions: ${JSON.stringify(describeSessions(ov), null, 1)}`,
    `openviking requests:\n${ov
      .requests()
      .map(
        (request) =>
          `${request.method} ${request.path} → ${request.status}${request.fault ? ` (${request.fault})` : ''}`,
      )
      .join('\n')}`,
    `plugin debug log (tail):\n${pluginDebugLog.slice(-3000)}`,
  ];
}

/** Builds the world; `script` drives the fake model; `server`: the test server's options (e.g. `extractOnCommit`). */
export async function createWorld(
  label: string,
  script: ModelScript,
  server: Parameters<typeof startSeededOpenViking>[0] = {},
): Promise<E2eWorld> {
  const model = await startFakeModel({ script });
  const ov = await startSeededOpenViking(server);
  const sandbox = createCliSandbox({ modelUrl: model.chatUrl, label });
  const { pluginEnv, pluginDebugLog } = pluginSide(ov, sandbox.root);
  return {
    model,
    ov,
    sandbox,
    pluginEnv,
    repoPlugin: { kind: 'plugin-dir', dir: REPO_ROOT },
    pluginDebugLog,
    evidence: () => evidenceSections(model.calls(), ov, pluginDebugLog()).join('\n\n'),
    dispose: async () => {
      sandbox.dispose();
      await Promise.all([model.close(), ov.close()]);
    },
  };
}
