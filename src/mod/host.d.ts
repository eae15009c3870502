/**
 * The part of Claude Code's hooks-module API this plugin uses, written out
 * here so the module type-checks without the host's 23,000-line file. Only
 * Claude Code loads the module (D31: its manifest names it).
 *
 * Source: Claude Code 2.1.332's `declare module 'claude-code'` (extracted
 * from the binary; the API is "early access" and moved between 2.1.328 and
 * 2.1.332, so the CLI versions are pinned, DESIGN D22), checked against what
 * both pinned versions did (D30). Only what the module calls is declared.
 *
 * The element factory `h` is a global of the module's environment (JSX
 * compiles to it); card/view.ts declares it where it is used.
 *
 * @module
 */

/** The plugin's `userConfig` values as the host hands them to `register` (frozen). */
export type PluginOptions = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

/** `register(on, options)`: the module's one export. */
export type Register = (on: On, options: PluginOptions) => unknown;

/** `next(e)`: the hooks beneath and then the host's own behaviour; resolves to the event's result. */
export type Next<E, R> = (e: E) => Promise<R>;

/** A hook: `$`, the event's input, and `next`. */
export type Hook<E, R> = ($: Engine, e: E, next: Next<E, R>) => R | Promise<R>;

/** A matcher value: a scalar is `===`, a RegExp tests the string, an array matches if any element does. */
export type MatcherValue = string | number | boolean | RegExp | readonly (string | RegExp)[];

/** The events the module hooks, by literal name (the host refuses a computed one). */
export interface On {
  (event: 'session.start', hook: Hook<SessionStartInput, unknown>): unknown;
  (event: 'command.run', matcher: { command: string }, hook: Hook<CommandRunInput, CommandRunResult>): unknown;
  (event: 'classic.UserPromptSubmit', hook: Hook<ClassicInput, ClassicResult>): unknown;
  (event: 'classic.SessionStart', hook: Hook<ClassicInput, ClassicResult>): unknown;
  (event: 'tool.call', matcher: { tool: MatcherValue }, hook: Hook<ToolCallInput, ToolCallResult>): unknown;
  (event: 'session.append', matcher: { door: string }, hook: Hook<SessionAppendInput, SessionAppendResult>): unknown;
  (event: 'turn.complete', hook: Hook<unknown, unknown>): unknown;
  (event: 'ui.render', matcher: { component: string }, hook: Hook<RenderInput, RenderResult>): unknown;
}

export interface SessionStartInput {
  cwd?: string;
  surface?: string | null;
  isInteractive?: boolean;
}

export interface CommandRunInput {
  command: string;
  /** The raw text after the command's name. */
  args: string;
}

export interface CommandRunResult {
  text?: string;
  isTextDisplayOnly?: true;
}

/** A `classic.<Event>`: the shell hooks' stdin payload; `next(e)` runs them and folds their answers. */
export type ClassicInput = Readonly<Record<string, unknown>>;

/** The folded answer of the shell hooks (`additionalContext` an array: a string makes the host fall back). */
export interface ClassicResult {
  additionalContext?: readonly string[];
  [key: string]: unknown;
}

/** `tool.call`: the model's raw arguments beside `tool` (`e.file_path`, FC10). */
export interface ToolCallInput {
  tool: string;
  tool_use_id?: string;
  [argument: string]: unknown;
}

/** `{ deny }` refuses the call (the model reads the text as the tool's error); from core, `{ result, text, isError? }`. */
export type ToolCallResult =
  { deny: string } | { result?: unknown; text?: string; isError?: boolean; [key: string]: unknown };

/** A row the conversation keeps; `door: 'response'` is an answer row, whose `uuid` a render's `requestId` names. */
export interface SessionAppendInput {
  door?: string;
  agentId?: string;
  [key: string]: unknown;
}

export interface SessionAppendResult {
  deny?: string;
  uuid?: string;
  message?: { content?: readonly unknown[] };
  [key: string]: unknown;
}

export interface RenderInput {
  surface: string;
  component: string;
  /** For an AssistantMessage: the transcript row's uuid of that text block. */
  requestId?: string;
  props?: Readonly<Record<string, unknown>>;
}

/** A drawn tree: an element. */
export type RenderResult = unknown;

/** An element as the factory builds it. */
export interface Element {
  type: string;
  props: Readonly<Record<string, unknown>> | null;
  children: readonly unknown[];
}

/** An element constructor of a surface's table (`Box`, `Text`, `Button`). */
export type ElementType = (props: Record<string, unknown>) => Element;

/** `$.state` names a value by literal plugin and key. */
export interface StateRef {
  readonly plugin: string;
  readonly key: string;
}

/** The engine interface: the nouns this module calls. */
export interface Engine {
  plugin: { name: string; root: string };
  env: {
    /** `name` must be a string literal at the call site. */
    get(name: string): Promise<string | undefined>;
    /** `name` must be a string literal; `undefined` unsets. `{}` or `{ deny }`. */
    set(name: string, value: string | undefined): Promise<{ deny?: string } | undefined>;
  };
  /** `hookEnv()` gives `CLAUDE_PID` and the other variables of the command hooks (FC9). */
  process: {
    hookEnv(): Promise<Record<string, string>>;
  };
  session: {
    id(): Promise<string | undefined>;
    /** The session's folder, absolute. */
    cwd(): Promise<string>;
  };
  /** Absolute paths; a missing path rejects with a message ending `failed: ENOENT…`. */
  fs: {
    /** With `offset`/`length` a byte range, which reads only a regular file (a FIFO or device rejects); an answer over 4 MiB rejects. */
    read(path: string, options?: { offset?: number; length?: number }): Promise<string>;
    /** Replaces the whole file, making missing folders (files 0600, folders 0700). */
    write(path: string, text: string): Promise<void>;
    list(
      path: string,
    ): Promise<
      ReadonlyArray<{ name: string; kind: 'file' | 'dir' | 'other'; size: number; mtimeMs: number; isLink: boolean }>
    >;
    /** What the path leads to (links followed); `realPath` with `resolve`, absent when it leads nowhere. */
    stat(
      path: string,
      options?: { resolve: boolean },
    ): Promise<{ kind: 'file' | 'dir' | 'other'; size: number; mtimeMs: number; isLink: boolean; realPath?: string }>;
  };
  clock: {
    /** Resolves after `ms`; rejects at once when `signal` aborts. The hooks module has no timers of its own. */
    sleep(ms: number, options?: { signal?: AbortSignal }): Promise<void>;
  };
  state: {
    get<T>(ref: StateRef): Promise<{ value: T | undefined; version: number }>;
    set<T>(ref: StateRef, value: T, options?: { ifVersion?: number }): Promise<{ isSet: boolean; version?: number }>;
  };
  store: {
    get(key: string): Promise<unknown>;
    set(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<void>;
  };
  ui: {
    resolve(e: RenderInput): Record<string, ElementType>;
    /** A transcript line for the user (not sent to the model; `-p` hands it to the host as `ui_log`), or with `{ to: 'debug' }` the debug log only. */
    log(text: string, options?: { to?: 'debug' }): unknown;
  };
  command: {
    register(spec: { name: string; description: string; argumentHint?: string }): Promise<unknown>;
  };
  http: {
    /** `{ deny }` when a module above refuses the op. No timeout option: a dead server holds it 30 s. */
    fetch(
      url: string,
      init?: { method?: string; headers?: Record<string, string>; body?: string },
    ): Promise<{ status: number; ok: boolean; headers: Record<string, string>; text: string } | { deny: string }>;
  };
}

/** The global `h(type, props, ...children)`. */
export type ElementFactory = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => Element;
