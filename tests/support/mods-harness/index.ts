/**
 * A host for the hooks module in a box, in the spirit of seed 003's
 * `codebuddy-code/testing` and Claude Code's `claude-code/testing`: it loads
 * the BUILT module (`hooks/register.mjs`, `npm run build` first) as the host
 * does, a fresh instance per session (the module's own state lives as long as
 * a session), fires events through the hooks it registered, and hands them a
 * `$` whose every call is recorded. A call the profile does not answer and
 * the test did not stub throws, naming the op (`unstubbed $.http.fetch`), and
 * is listed in `unstubbed`: the boundary is drawn in the test, never assumed.
 *
 * The host's own answers come from its profile (profiles.ts): Claude Code,
 * as measured here (`$.process.hookEnv()` gives `CLAUDE_PID`; `$.http.fetch`
 * must be stubbed), the one host that loads the module (D31).
 *
 * @module
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { REPO_ROOT } from '../spawn-hook.js';
import { PROFILES, type HostProfileName } from './profiles.js';

export type { HostProfileName } from './profiles.js';

/** The element the harness's `h` builds: `type` is the constructor's tag (`Box`, `Text`, `Button`). */
export interface TestElement {
  type: string;
  props: Record<string, unknown> | null;
  children: unknown[];
}

type Hook = ($: unknown, e: unknown, next: (e: unknown) => Promise<unknown>) => unknown;
type Op = (...args: any[]) => unknown;

interface Registration {
  event: string;
  matcher: Record<string, unknown> | undefined;
  hook: Hook;
}

export interface RecordedCall {
  op: string;
  args: unknown[];
}

/** One session of the module in a host profile. */
export interface ModSession {
  profile: HostProfileName;
  /** The engine interface the hooks get (for driving the module's own functions directly). */
  $: unknown;
  /** The process environment the module reads and writes (`$.env`), as the next hook would inherit it. */
  env: Map<string, string>;
  /** `$.store` (kept across sessions when passed to the next `startModSession`). */
  store: Map<string, unknown>;
  /** `$.state` of this session. */
  state: Map<string, { value: unknown; version: number }>;
  /** Every `$` call, in order. */
  calls: RecordedCall[];
  /** Calls nobody answered (they threw, naming the op). */
  unstubbed: string[];
  /**
   * Resolves once every `$` call made so far has settled, those made while
   * waiting too: a call the module stopped waiting for (a fetch past its
   * deadline) still runs on the host, and a test ends only when it has.
   */
  settled(): Promise<void>;
  /** `$.ui.log` lines. */
  logs: string[];
  /** The events the module registered, in order. */
  events(): string[];
  /** Answer `op` (`http.fetch`, `env.set`, …) with `impl` from now on. */
  stub(op: string, impl: Op): void;
  /**
   * Fires `event` with `e`: the module's matching hooks in registration
   * order, then `beneath` (what the host and the plugins under it answer).
   * Rejects when a hook throws, as the host would log it.
   */
  fire(event: string, e: unknown, beneath?: (e: unknown) => unknown): Promise<unknown>;
  /** Fires `ui.render` of an AssistantMessage row and returns the tree (the engine's own part is `{ type: 'engine' }`). */
  render(requestId: string): Promise<unknown>;
  /** Presses a drawn Button by key. */
  press(tree: unknown, key: string): Promise<void>;
}

export interface ModSessionOptions {
  profile: HostProfileName;
  /** `register`'s second argument (the plugin's options). */
  options?: Record<string, unknown>;
  /** The CLI's environment. */
  env?: Record<string, string>;
  /** A store kept from an earlier session (`--continue`). */
  store?: Map<string, unknown>;
  sessionId?: string;
}

const BUNDLE = join(REPO_ROOT, 'hooks', 'register.mjs');
let instances = 0;

/** The element factory the hosts put in the module's global scope. */
function installFactory(): void {
  (globalThis as Record<string, unknown>).h = (
    type: unknown,
    props: Record<string, unknown> | null,
    ...children: unknown[]
  ): TestElement => ({
    type: typeof type === 'function' ? String((type as { tag?: string }).tag ?? type.name) : String(type),
    props,
    children: children.flat(),
  });
}

function elementType(tag: string): Op {
  const make = (props: Record<string, unknown>): TestElement => ({ type: tag, props, children: [] });
  return Object.assign(make, { tag });
}

/** A matcher as the hosts read one: scalar `===`, RegExp on the string, array any, object partial. */
export function matches(matcher: unknown, value: unknown): boolean {
  if (matcher instanceof RegExp) return matcher.test(String(value));
  if (Array.isArray(matcher)) return matcher.some((one) => matches(one, value));
  if (typeof matcher === 'object' && matcher !== null) {
    if (typeof value !== 'object' || value === null) return false;
    return Object.entries(matcher).every(([key, want]) => matches(want, (value as Record<string, unknown>)[key]));
  }
  return matcher === value;
}

export async function startModSession(options: ModSessionOptions): Promise<ModSession> {
  installFactory();
  const module = (await import(`${pathToFileURL(BUNDLE).href}?instance=${++instances}`)) as {
    register: (on: unknown, options: unknown) => unknown;
  };
  const profile = PROFILES[options.profile];
  const registrations: Registration[] = [];
  const env = new Map(Object.entries(options.env ?? {}));
  const store = options.store ?? new Map<string, unknown>();
  const state = new Map<string, { value: unknown; version: number }>();
  const calls: RecordedCall[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const unstubbed: string[] = [];
  const logs: string[] = [];
  const stubs = new Map<string, Op>();
  const sessionId = options.sessionId ?? 'session-1';

  const stateKey = (ref: { plugin: string; key: string }) => `${ref.plugin}/${ref.key}`;
  const builtIns: Record<string, Op> = {
    'env.get': (name: string) => env.get(name),
    'env.set': (name: string, value: string | undefined) => {
      if (value === undefined) env.delete(name);
      else env.set(name, value);
      return {};
    },
    'state.get': (ref: { plugin: string; key: string }) => state.get(stateKey(ref)) ?? { value: undefined, version: 0 },
    'state.set': (ref: { plugin: string; key: string }, value: unknown, opts?: { ifVersion?: number }) => {
      const held = state.get(stateKey(ref)) ?? { value: undefined, version: 0 };
      if (opts?.ifVersion !== undefined && opts.ifVersion !== held.version)
        return { isSet: false, version: held.version };
      state.set(stateKey(ref), { value: structuredClone(value), version: held.version + 1 });
      return { isSet: true, version: held.version + 1 };
    },
    'store.get': (key: string) => structuredClone(store.get(key)),
    'store.set': (key: string, value: unknown) => void store.set(key, structuredClone(value)),
    'store.delete': (key: string) => void store.delete(key),
    'store.keys': () => [...store.keys()],
    'session.id': () => sessionId,
    'ui.log': (text: string) => void logs.push(text),
    'ui.resolve': () => ({ Box: elementType('Box'), Text: elementType('Text'), Button: elementType('Button') }),
    'command.register': (spec: { name: string }) => ({ command: spec.name }),
    'clock.now': () => Date.now(),
    ...profile.ops,
  };
  const SYNC_OPS = new Set(['ui.resolve']);

  const $ = new Proxy(
    {},
    {
      get(_target, noun) {
        if (noun === 'plugin') return { name: 'openviking', root: REPO_ROOT };
        return new Proxy(
          {},
          {
            get(_inner, opName) {
              const op = `${String(noun)}.${String(opName)}`;
              return (...args: unknown[]) => {
                calls.push({ op, args });
                const impl = stubs.get(op) ?? builtIns[op];
                if (impl === undefined) {
                  unstubbed.push(op);
                  const failure = new Error(`unstubbed $.${op}`);
                  if (SYNC_OPS.has(op)) throw failure;
                  return Promise.reject(failure);
                }
                if (SYNC_OPS.has(op)) return impl(...args);
                const answer = Promise.resolve().then(() => impl(...args));
                inFlight.add(answer);
                void answer.then(
                  () => inFlight.delete(answer),
                  () => inFlight.delete(answer),
                );
                return answer;
              };
            },
          },
        );
      },
    },
  );

  const on = (event: string, matcherOrHook: unknown, maybeHook?: unknown) => {
    const hook = (maybeHook ?? matcherOrHook) as Hook;
    const matcher = maybeHook === undefined ? undefined : (matcherOrHook as Record<string, unknown>);
    registrations.push({ event, matcher, hook });
  };
  module.register(on, Object.freeze({ ...(options.options ?? {}) }));

  const fire = async (event: string, e: unknown, beneath: (e: unknown) => unknown = () => ({})) => {
    const hooks = registrations.filter((r) => r.event === event && (r.matcher === undefined || matches(r.matcher, e)));
    const run = async (index: number, input: unknown): Promise<unknown> => {
      const registration = hooks[index];
      if (registration === undefined) return beneath(input);
      return registration.hook($, input, (next) => run(index + 1, next));
    };
    return run(0, e);
  };

  const session: ModSession = {
    profile: options.profile,
    $,
    env,
    store,
    state,
    calls,
    unstubbed,
    settled: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    logs,
    events: () => registrations.map((r) => r.event),
    stub: (op, impl) => void stubs.set(op, impl),
    fire,
    render: (requestId) =>
      fire(
        'ui.render',
        {
          surface: 'terminal',
          component: 'AssistantMessage',
          requestId,
          props: { text: 'answer', isFirstOfReply: true },
        },
        () => profile.engineRow,
      ),
    press: async (tree, key) => {
      const button = findElement(tree, (element) => element.type === 'Button' && element.props?.key === key);
      if (button === undefined) throw new Error(`no Button ${key} in ${JSON.stringify(tree)}`);
      await (button.props?.onPress as () => unknown)();
    },
  };
  return session;
}

/** The first element of `tree` (depth first) that `test` accepts. */
export function findElement(tree: unknown, test: (element: TestElement) => boolean): TestElement | undefined {
  if (typeof tree !== 'object' || tree === null) return undefined;
  const element = tree as TestElement;
  if (typeof element.type === 'string' && test(element)) return element;
  const children = Array.isArray(element.children)
    ? element.children
    : 'tree' in element
      ? [(element as { tree: unknown }).tree]
      : [];
  for (const child of children) {
    const found = findElement(child, test);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The text a tree shows, one line per Text element at the top of its row. */
export function textOf(tree: unknown): string {
  if (typeof tree === 'string' || typeof tree === 'number') return String(tree);
  if (typeof tree !== 'object' || tree === null) return '';
  const element = tree as TestElement;
  if (element.type === 'Button') return ` [${String(element.props?.label ?? '')}]`;
  const children = Array.isArray(element.children)
    ? element.children
    : 'tree' in element
      ? [(element as { tree: unknown }).tree]
      : [];
  const inner = children
    .map(textOf)
    .join(element.type === 'Box' && element.props?.flexDirection === 'column' ? '\n' : '');
  return inner;
}
