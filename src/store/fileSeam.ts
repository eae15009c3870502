/**
 * The file seam: every file call the shared rules (config/, project/,
 * recall/, stages/, profile/, why/ and the store's own caches and records)
 * make, declared once, with the rule and the constants both sides share.
 *
 * Two implementations keep it. Node's, in the hook processes, the resident
 * and the MCP proxy: store/smallFile.ts, fsUtil.ts and atomic.ts. The hooks
 * module's (D30), which has no node, only the host's asynchronous `$.fs`:
 * src/mod/files/smallFile.ts, fsUtil.ts and atomic.ts, answered from and
 * written to its file snapshot; in hooks/register.mjs only, build.mjs
 * (`MODULE_LEAVES`) puts each in the place of node's file of the same name.
 * Each file says which part of the seam it implements
 * (`Implements<…Leaf, typeof import(…)>`), so the compiler refuses either
 * side once it drops a call or changes a signature, and one contract test
 * (tests/store/file-seam.test.ts) runs every call against both on the same
 * files (D37).
 *
 * What the module cannot do is part of the contract, said per call below:
 * no delete, no inode, no rename (its writes are whole-file writes after the
 * answer), folders made by the host's write.
 *
 * @module
 */

/** Files the plugin writes are private to the user. */
export const PRIVATE_FILE_MODE = 0o600;
/** So are the folders. */
export const PRIVATE_DIR_MODE = 0o700;
/** Suffix of in-flight temp files; never matches a `*.json` listing. */
export const TEMP_SUFFIX = '.tmp';

/** Why a file was not read: not there, not a regular file, over the cap, or an error (permissions, a loop). */
export type SmallFileAbsence = 'missing' | 'not-a-file' | 'too-large' | 'unreadable';

export type SmallFile =
  | { text: string; absent?: undefined }
  | {
      text?: undefined;
      absent: SmallFileAbsence;
      /** What the file is and why it was ignored, to follow the path in a message: `is a FIFO, not a regular file`. */
      why: string;
    };

/** What a path leads to, as far as the small-file rule cares ('other': whatever the side cannot name). */
export type FileKind = 'file' | 'directory' | 'FIFO' | 'character device' | 'block device' | 'socket' | 'other';

/** What the shared rules read of a path's stat (node's Stats has it; the module's snapshot answers the same, `ino` 0). */
export interface PathStat {
  isFile(): boolean;
  isDirectory(): boolean;
  size: number;
  mtimeMs: number;
  /** 0 in the module, which is not told inodes (FC17). */
  ino: number;
}

export interface AtomicWriteOptions {
  /**
   * fsync the temp file before the rename, so a power loss cannot leave an
   * empty file behind. Atomicity against crashed processes does not need it.
   * Default true.
   */
  fsync?: boolean;
}

/**
 * The small-file rule (D27): a file is read only when it is a regular file
 * of at most `maxBytes` bytes; anything else is absent, with the reason.
 */
export interface SmallFileLeaf {
  /** `path` as UTF-8 text when the rule allows, else why not. Never throws. */
  readSmallFile(path: string, maxBytes: number): SmallFile;
}

export interface FsUtilLeaf {
  /** `stat` of `path`, links followed; undefined when it is missing, leads nowhere or cannot be looked at. */
  statQuietly(path: string): PathStat | undefined;
  /** Where `path` lands, every link followed; undefined when it leads nowhere. */
  realPath(path: string): string | undefined;
  /** The same through the OS's `realpath(3)` (the module: as `realPath`). */
  realPathNative(path: string): string | undefined;
  /** The names in `dir`, in no given order; none when it cannot be listed. */
  namesInDir(dir: string): string[];
  /** Removes `path` if it can (the module has no delete: the file stays). Never throws. */
  removeFileQuietly(path: string): void;
  /** Appends `text` to a private file, creating it and its folder. Throws when it cannot. */
  appendPrivateFileSync(path: string, text: string): void;
  /** Creates an empty private file only when none is there: true for the one caller that made it. Never throws. */
  createFileExclusive(path: string): boolean;
}

export interface AtomicLeaf {
  readonly PRIVATE_FILE_MODE: number;
  readonly PRIVATE_DIR_MODE: number;
  readonly TEMP_SUFFIX: string;
  /** Makes `dir` and its parents, 0700 (the module: the host's write makes them). */
  ensurePrivateDir(dir: string): Promise<void>;
  ensurePrivateDirSync(dir: string): void;
  /** Replaces `path` with `data` whole, 0600, its folder made; no reader sees half of it (the module: see D30). */
  writeFileAtomic(path: string, data: string, options?: AtomicWriteOptions): Promise<void>;
  writeFileAtomicSync(path: string, data: string): void;
  writeJsonAtomic(path: string, value: unknown, options?: AtomicWriteOptions): Promise<void>;
}

/** The whole seam. */
export type FileSeam = SmallFileLeaf & FsUtilLeaf & AtomicLeaf;

/**
 * `Module`, which compiles only when it has every call of `Leaf`, each of its
 * type: how a leaf file declares the part of the seam it implements.
 */
export type Implements<Leaf, Module extends Leaf> = Module;

/** Not there (or a link that leads nowhere). */
export const MISSING: SmallFile = { absent: 'missing', why: 'does not exist' };

/** The rule on what a look at the path found: undefined when it may be read, else why not. */
export function smallFileRefusal(kind: FileKind, size: number, maxBytes: number): SmallFile | undefined {
  if (kind !== 'file') return { absent: 'not-a-file', why: `is ${describeKind(kind)}, not a regular file` };
  return size > maxBytes ? tooLargeFile(maxBytes) : undefined;
}

/** The rule on what was read, at most `maxBytes + 1` bytes of it: the text, or too large. */
export function smallFileText(text: string, bytes: number, maxBytes: number): SmallFile {
  return bytes > maxBytes ? tooLargeFile(maxBytes) : { text };
}

/** A look or read that failed for another reason than absence (`why`: the error's words). */
export function unreadableFile(why: string): SmallFile {
  return { absent: 'unreadable', why: `cannot be read (${why})` };
}

/** More than `maxBytes` bytes (whatever its size said). */
export function tooLargeFile(maxBytes: number): SmallFile {
  return { absent: 'too-large', why: `is larger than ${maxBytes} bytes` };
}

function describeKind(kind: Exclude<FileKind, 'file'>): string {
  return kind === 'other' ? 'not a file' : `a ${kind}`;
}
