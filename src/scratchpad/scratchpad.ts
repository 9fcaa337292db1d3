import { describeValue, InvalidArgumentError } from '../errors.js';
import { countWithin, estimateTokens } from '../tokens/bounded-count.js';
import { countBlocks } from '../tokens/block-counts.js';
import type { BlockCounts } from '../tokens/block-counts.js';
import { countJoined } from '../tokens/token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { OpenFile } from '../types.js';
import {
  commonLines,
  computeDiffRecord,
  countLines,
  isBinaryContent,
  utf8ByteLength,
} from './diff-record.js';
import type { DiffRecord } from './diff-record.js';
import { formatCount } from '../format.js';
import { fenceAfterEdit, fenceFor } from './code-fence.js';
import { sharedBodyEnds } from './counted-body.js';
import type { CountedBody } from './counted-body.js';
import { filePathKey, normalizeFilePath } from './file-path.js';
import {
  displayPath,
  plural,
  renderCloseLine,
  renderDiffLines,
  renderOpenLine,
  renderReReadLine,
  renderWindowedLine,
} from './render-diff.js';
import type { FileCloseCause } from './render-diff.js';

export { replayPatches } from './diff-record.js';

/** Options for {@link createScratchpad}; the facade validates them and applies defaults. */
export interface ScratchpadOptions {
  /** Counts the tokens of each rendered section, once per open or update. */
  counter: TokenCounter;
  /** Tokens the rendered scratchpad may use; a larger file is shown as a head/tail window. */
  budget: number;
  /** Exchanges (user turns) without a touch after which a file is due to close. */
  autoCloseAfter: number;
  /**
   * Largest changed region of an update (UTF-8 bytes, both versions) that is diffed line by line;
   * above it the update is recorded as `+N/-M lines` without a line diff and the file's history
   * (`history()`) restarts at the new content. @default Infinity
   */
  maxDiffBytes?: number | undefined;
  /**
   * Whether two paths that differ only in letter case are the same file (as on Windows and
   * macOS). Paths are always normalised (see {@link normalizeFilePath}). @default false
   */
  isCaseInsensitive?: boolean | undefined;
  /** State from {@link Scratchpad.toJSON} to start from. @default undefined (empty) */
  initial?: ScratchpadData | undefined;
}

/** Serialisable state of a scratchpad, from {@link Scratchpad.toJSON}. */
export interface ScratchpadData {
  /** The budget the sections were rendered for; sections are re-rendered when it differs. */
  readonly budget: number;
  /** The open files, oldest `openedAt` first. */
  readonly files: readonly ScratchpadFileData[];
}

/** One open file in {@link ScratchpadData}. */
export interface ScratchpadFileData {
  /** The file, with its cached token count. */
  readonly file: OpenFile;
  /** The rendered section that `file.tokens` counts, so that loading does not tokenize. */
  readonly section: string;
  /** The content given when the file was opened. */
  readonly openContent: string;
  /** One unified patch per content-changing update since the open, in order. */
  readonly patches: readonly string[];
}

/** Arguments of {@link Scratchpad.open}. */
export interface ScratchpadOpenOptions {
  /**
   * The file's path; any non-empty string. It is normalised (`\` → `/`, no `./`, repeated or
   * trailing slashes), so `./src/a.ts` and `src\a.ts` name the same file as `src/a.ts`.
   */
  path: string;
  /** The file's full content. */
  content: string;
  /** Sequence number of the event, assigned by the caller. */
  seq: number;
  /** User-turn counter at the time of the event. */
  exchange: number;
  /** Caller timestamp (ISO-8601) of the event. @default undefined */
  at?: string | undefined;
}

/** Arguments of {@link Scratchpad.update}. */
export interface ScratchpadUpdateOptions {
  /** The path of an open file. */
  path: string;
  /** The file's new full content. */
  content: string;
  /** Why the change was made; appended to the first history line. @default undefined */
  reason?: string | undefined;
  /** Sequence number of the event, assigned by the caller. */
  seq: number;
  /** User-turn counter at the time of the event. */
  exchange: number;
  /** Caller timestamp (ISO-8601) of the event. @default undefined */
  at?: string | undefined;
}

/** Arguments of {@link Scratchpad.close}. */
export interface ScratchpadCloseOptions {
  /** The path of an open file. */
  path: string;
  /** Why the file closes; shown in the history line. */
  cause: FileCloseCause;
  /**
   * User-turn counter now, used to say how long an auto-closed file was untouched.
   * @default undefined (the `autoCloseAfter` option is reported instead)
   */
  exchange?: number | undefined;
}

/** What {@link Scratchpad.open} did. */
export interface ScratchpadOpenResult {
  /** History record lines for this event, in order. */
  readonly lines: string[];
  /** The file after the event. */
  readonly file: OpenFile;
  /**
   * `'opened'` for a file that was not open, `'unchanged'` when it was open with the same
   * content (only touched), `'changed'` when it was open with other content (diffed as an
   * update).
   */
  readonly outcome: 'opened' | 'unchanged' | 'changed';
  /** The diff against the held content, for `outcome: 'changed'`. */
  readonly diff?: DiffRecord | undefined;
}

/** What {@link Scratchpad.update} did. */
export interface ScratchpadUpdateResult {
  /** History record lines, one per hunk; empty when the content did not change. */
  readonly lines: string[];
  /** The file after the update. */
  readonly file: OpenFile;
  /** The structured diff, including its replay patch. */
  readonly diff: DiffRecord;
}

/** What {@link Scratchpad.close} did. */
export interface ScratchpadCloseResult {
  /** History record lines for this event. */
  readonly lines: string[];
  /** The file as it was when it closed. */
  readonly file: OpenFile;
  /** Content-changing updates since the file was opened (`file.edits`). */
  readonly edits: number;
}

/** What is needed to rebuild a file's current content from the content it was opened with. */
export interface ScratchpadFileHistory {
  /** The content given when the file was opened. */
  readonly openContent: string;
  /** One unified patch per content-changing update, in order. */
  readonly patches: readonly string[];
}

/**
 * The current content of each open file, held once, outside history. Pure state: no events,
 * no I/O, no clock; callers pass `seq`, `exchange` and `at` on every mutating call and record
 * the returned `lines` in history. A call that throws changes nothing.
 */
export interface Scratchpad {
  /**
   * Opens a file and returns `[opened path, N lines]`. Opening an open file with the same
   * content records `[re-read path, unchanged, N lines]` and touches it; with other content it
   * is diffed like {@link Scratchpad.update}.
   */
  open(options: ScratchpadOpenOptions): ScratchpadOpenResult;
  /**
   * Replaces an open file's content and returns one compact history line per hunk (none when
   * the content is identical; the file is touched either way).
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when `path` is not open.
   */
  update(options: ScratchpadUpdateOptions): ScratchpadUpdateResult;
  /**
   * Closes a file and returns `[closed path, N edits]`, with the cause when it is not explicit.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when `path` is not open.
   */
  close(options: ScratchpadCloseOptions): ScratchpadCloseResult;
  /** Returns an open file, or `undefined` when `path` is not open. */
  get(path: string): OpenFile | undefined;
  /** Tells whether `path` is open. */
  has(path: string): boolean;
  /** Returns the open files, oldest `openedAt` first. */
  files(): readonly OpenFile[];
  /**
   * Returns the content a file was opened with and its patches; see {@link replayPatches}.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when `path` is not open.
   */
  history(path: string): ScratchpadFileHistory;
  /**
   * Tells whether `content` differs from the content held for `path` (the caller's copy is
   * newer), or `undefined` when `path` is not open.
   */
  isStale(options: { path: string; content: string }): boolean | undefined;
  /** Returns the paths untouched for `autoCloseAfter` exchanges or more, in `files()` order. */
  filesToAutoClose(options: { exchange: number }): string[];
  /**
   * Returns the least recently touched paths (oldest first, never `keep`) whose closing brings
   * the scratchpad within its budget; empty when it already fits.
   */
  filesToEvict(options?: { keep?: string | undefined }): string[];
  /** Returns the sum of the cached section token counts, without tokenizing. */
  totalTokens(): number;
  /**
   * Returns every section in `files()` order, separated by a blank line. `totalTokens()` counts
   * the sections, not the separators (about one token each).
   */
  render(): string;
  /**
   * Returns one file's section: a header line and a fenced code block (or a head/tail window,
   * or a binary marker).
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when `path` is not open.
   */
  renderSection(path: string): string;
  /** Returns the serialisable state, for `initial`; the cached token counts are kept. */
  toJSON(): ScratchpadData;
}

/**
 * Creates a scratchpad, empty or from the state given as `initial`.
 *
 * @example
 * ```ts
 * const counter = createTokenCounter();
 * const scratchpad = createScratchpad({ counter, budget: 15_000, autoCloseAfter: 10 });
 * scratchpad.open({ path: 'src/auth.py', content, seq: 1, exchange: 1 }).lines;
 * // ['[opened src/auth.py, 245 lines]']
 * scratchpad.update({ path: 'src/auth.py', content: edited, reason: 'null check', seq: 2, exchange: 1 })
 *   .lines; // ['[src/auth.py:50] `if user:` → `if user and user.active:` (null check)']
 * ```
 */
export function createScratchpad(options: ScratchpadOptions): Scratchpad {
  const { counter, budget, autoCloseAfter } = options;
  // Keyed by the path's identity; a file keeps the (normalised) spelling it was opened with.
  const states = new Map<string, FileState>();
  const keyOptions = { isCaseInsensitive: options.isCaseInsensitive ?? false };
  const keyOf = (path: string): string => filePathKey(path, keyOptions);
  let total = 0;
  let insertions = 0;
  for (const data of options.initial?.files ?? []) {
    insertions += 1;
    const state = restoreState({ data, isSameBudget: options.initial?.budget === budget, budget, counter });
    states.set(keyOf(state.file.path), { ...state, insertion: insertions });
    total += state.file.tokens;
  }

  const requireState = (method: string, path: string): FileState => {
    const state = states.get(keyOf(path));
    if (state === undefined) throw unknownFileError(method, path);
    return state;
  };

  const commit = (previous: FileState | undefined, next: FileState): void => {
    total += next.file.tokens - (previous?.file.tokens ?? 0);
    states.set(keyOf(next.file.path), next);
  };

  const touch = (state: FileState, event: TouchEvent): FileState => {
    const file = state.file;
    const section: Section =
      file.touchedExchange === event.exchange
        ? {
            text: state.section,
            tokens: file.tokens,
            isWindowed: file.isWindowed,
            fullTokens: state.fullTokens,
          }
        : buildSection({
            ...sectionInput(file, state.bytes),
            isBinary: state.isBinary,
            exchange: event.exchange,
            budget,
            counter,
            // Same content: a windowed file still does not fit, so skip counting it in full.
            knownFullTokens: file.isWindowed ? state.fullTokens : undefined,
            previousBody: state.body,
          });
    return {
      ...state,
      section: section.text,
      fullTokens: section.fullTokens,
      body: section.body ?? state.body,
      file: lazyHashFile(
        {
          ...withoutTimeAndHash(file),
          tokens: section.tokens,
          isWindowed: section.isWindowed,
          touchedAt: event.seq,
          touchedExchange: event.exchange,
          ...timeOf(event.at),
        },
        state.digest,
      ),
    };
  };

  // Diffs `content` against the held content and returns the new state and its history lines,
  // without mutating anything.
  const change = (
    state: FileState,
    event: TouchEvent & { content: string; reason?: string | undefined },
  ): { next: FileState; lines: string[]; diff: DiffRecord } => {
    const previous = state.file;
    const shared = commonLines(previous.content, event.content);
    const isBinary = isBinaryContent(event.content);
    const diff = computeDiffRecord({
      path: previous.path,
      before: previous.content,
      after: event.content,
      reason: event.reason,
      maxDiffBytes: options.maxDiffBytes,
      beforeBytes: state.bytes,
      beforeLineCount: previous.lineCount,
      shared,
      isBinaryBefore: state.isBinary,
      isBinaryAfter: isBinary,
    });
    const lineCount = diff.newLineCount;
    const edits = previous.edits + 1;
    const section = buildSection({
      path: previous.path,
      content: event.content,
      lineCount,
      bytes: diff.newBytes,
      edits,
      exchange: event.exchange,
      budget,
      counter,
      isBinary,
      previousBody: state.body,
      shared: { prefix: shared.prefixChars, suffix: shared.suffixChars },
    });
    const lines = renderDiffLines(diff);
    if (section.isWindowed && !previous.isWindowed) {
      lines.push(renderWindowedLine({ path: previous.path, lineCount }));
    }
    const digest = memoHash(event.content);
    const file: OpenFile = lazyHashFile({
      path: previous.path,
      content: event.content,
      lineCount,
      tokens: section.tokens,
      isWindowed: section.isWindowed,
      edits,
      openedAt: previous.openedAt,
      touchedAt: event.seq,
      touchedExchange: event.exchange,
      ...timeOf(event.at),
    }, digest);
    const next: FileState = {
      ...state,
      file,
      digest,
      bytes: diff.newBytes,
      isBinary,
      section: section.text,
      fullTokens: section.fullTokens,
      body: section.body,
      // Without a line diff there is no patch to replay: the history restarts here.
      ...(diff.isSkipped ? { openContent: event.content, patches: [] } : { patches: state.patches }),
    };
    return { next, lines, diff };
  };

  const applyChange = (
    state: FileState,
    result: { next: FileState; diff: DiffRecord },
  ): void => {
    commit(state, result.next);
    // The patch list is shared between the old and new state object; extend it only now that
    // nothing can throw any more.
    if (!result.diff.isSkipped) result.next.patches.push(result.diff.patch);
  };

  return {
    open(event: ScratchpadOpenOptions): ScratchpadOpenResult {
      const { content } = event;
      const path = normalizeFilePath(event.path);
      const existing = states.get(keyOf(path));
      if (existing !== undefined) {
        if (existing.file.content === content) {
          const next = touch(existing, event);
          commit(existing, next);
          const line = renderReReadLine({ path: existing.file.path, lineCount: next.file.lineCount, isChanged: false });
          return { lines: [line], file: next.file, outcome: 'unchanged' };
        }
        const result = change(existing, event);
        applyChange(existing, result);
        const line = renderReReadLine({ path: existing.file.path, lineCount: result.next.file.lineCount, isChanged: true });
        return {
          lines: [line, ...result.lines],
          file: result.next.file,
          outcome: 'changed',
          diff: result.diff,
        };
      }
      const lineCount = countLines(content);
      const bytes = utf8ByteLength(content);
      const isBinary = isBinaryContent(content);
      const section = buildSection({
        path,
        content,
        lineCount,
        bytes,
        isBinary,
        edits: 0,
        exchange: event.exchange,
        budget,
        counter,
      });
      const digest = memoHash(content);
      const file: OpenFile = lazyHashFile({
        path,
        content,
        lineCount,
        tokens: section.tokens,
        isWindowed: section.isWindowed,
        edits: 0,
        openedAt: event.seq,
        touchedAt: event.seq,
        touchedExchange: event.exchange,
        ...timeOf(event.at),
      }, digest);
      insertions += 1;
      commit(undefined, {
        file,
        digest,
        bytes,
        isBinary,
        section: section.text,
        fullTokens: section.fullTokens,
        body: section.body,
        openContent: content,
        patches: [],
        insertion: insertions,
      });
      const line = renderOpenLine({
        path,
        lineCount,
        bytes,
        isBinary,
        isWindowed: section.isWindowed,
      });
      return { lines: [line], file, outcome: 'opened' };
    },

    update(event: ScratchpadUpdateOptions): ScratchpadUpdateResult {
      const state = requireState('update', event.path);
      if (state.file.content === event.content) {
        const diff = computeDiffRecord({
          path: event.path,
          before: state.file.content,
          after: event.content,
          reason: event.reason,
          beforeBytes: state.bytes,
          beforeLineCount: state.file.lineCount,
          isBinaryBefore: state.isBinary,
          isBinaryAfter: state.isBinary,
        });
        const next = touch(state, event);
        commit(state, next);
        return { lines: [], file: next.file, diff };
      }
      const result = change(state, event);
      applyChange(state, result);
      return { lines: result.lines, file: result.next.file, diff: result.diff };
    },

    close(event: ScratchpadCloseOptions): ScratchpadCloseResult {
      const state = requireState('close', event.path);
      const file = state.file;
      const untouchedExchanges =
        event.cause !== 'auto'
          ? undefined
          : event.exchange === undefined
            ? autoCloseAfter
            : Math.max(0, event.exchange - file.touchedExchange);
      const line = renderCloseLine({
        path: file.path,
        edits: file.edits,
        cause: event.cause,
        untouchedExchanges,
      });
      states.delete(keyOf(file.path));
      total -= file.tokens;
      return { lines: [line], file, edits: file.edits };
    },

    get: (path: string): OpenFile | undefined => states.get(keyOf(path))?.file,

    has: (path: string): boolean => states.has(keyOf(path)),

    files: (): readonly OpenFile[] => ordered(states).map((state) => state.file),

    history(path: string): ScratchpadFileHistory {
      const state = requireState('history', path);
      return { openContent: state.openContent, patches: state.patches.slice() };
    },

    isStale(query: { path: string; content: string }): boolean | undefined {
      const state = states.get(keyOf(query.path));
      // An exact comparison: same cost as hashing, and no collisions.
      return state === undefined ? undefined : state.file.content !== query.content;
    },

    filesToAutoClose(query: { exchange: number }): string[] {
      return ordered(states)
        .filter((state) => query.exchange - state.file.touchedExchange >= autoCloseAfter)
        .map((state) => state.file.path);
    },

    filesToEvict(query: { keep?: string | undefined } = {}): string[] {
      let remaining = total;
      if (remaining <= budget) return [];
      const candidates = [...states.values()]
        .filter((state) => query.keep === undefined || keyOf(state.file.path) !== keyOf(query.keep))
        .sort(
          (left, right) =>
            left.file.touchedAt - right.file.touchedAt || left.insertion - right.insertion,
        );
      const paths: string[] = [];
      for (const state of candidates) {
        if (remaining <= budget) break;
        paths.push(state.file.path);
        remaining -= state.file.tokens;
      }
      return paths;
    },

    totalTokens: (): number => total,

    render: (): string =>
      ordered(states)
        .map((state) => state.section)
        .join(SECTION_SEPARATOR),

    renderSection: (path: string): string => requireState('renderSection', path).section,

    toJSON: (): ScratchpadData => ({
      budget,
      files: ordered(states).map((state) => ({
        file: state.file,
        section: state.section,
        openContent: state.openContent,
        patches: state.patches.slice(),
      })),
    }),
  };
}

/**
 * Hashes content with 64-bit FNV-1a over its UTF-8 bytes and returns 16 hex digits; the value
 * stored in `OpenFile.hash`. Not cryptographic: it detects changes, not tampering.
 */
export function hashContent(content: string): string {
  // Four 16-bit limbs: integer-only arithmetic, several times faster than 32-bit halves with a
  // floating-point carry (or BigInt) on multi-megabyte files.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const bytes = [0, 0, 0, 0];
  for (let index = 0; index < content.length; index += 1) {
    let code = content.charCodeAt(index);
    let count = 1;
    if (code < 0x80) {
      bytes[0] = code;
    } else {
      if (code >= 0xd800 && code <= 0xdfff) {
        const next = content.charCodeAt(index + 1);
        if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          index += 1;
        } else {
          code = 0xfffd;
        }
      }
      if (code < 0x800) {
        bytes[0] = 0xc0 | (code >> 6);
        bytes[1] = 0x80 | (code & 0x3f);
        count = 2;
      } else if (code < 0x10000) {
        bytes[0] = 0xe0 | (code >> 12);
        bytes[1] = 0x80 | ((code >> 6) & 0x3f);
        bytes[2] = 0x80 | (code & 0x3f);
        count = 3;
      } else {
        bytes[0] = 0xf0 | (code >> 18);
        bytes[1] = 0x80 | ((code >> 12) & 0x3f);
        bytes[2] = 0x80 | ((code >> 6) & 0x3f);
        bytes[3] = 0x80 | (code & 0x3f);
        count = 4;
      }
    }
    for (let byte = 0; byte < count; byte += 1) {
      h0 ^= bytes[byte] as number;
      // Multiply by the prime 2^40 + 0x1b3 modulo 2^64: 0x1b3 times each limb, plus the limbs
      // shifted by 40 bits (two limbs and 8 bits).
      const t0 = h0 * 0x1b3;
      const t1 = h1 * 0x1b3 + (t0 >>> 16);
      const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
      const t3 = h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16);
      h0 = t0 & 0xffff;
      h1 = t1 & 0xffff;
      h2 = t2 & 0xffff;
      h3 = t3 & 0xffff;
    }
  }
  return hex16(h3) + hex16(h2) + hex16(h1) + hex16(h0);
}

// --- Internal helpers ---

function hex16(limb: number): string {
  return limb.toString(16).padStart(4, '0');
}

interface FileState {
  readonly file: OpenFile;
  /** Returns `file.hash`, computing it on first use. */
  readonly digest: () => string;
  /** UTF-8 size of `file.content`, kept so that an edit counts only the bytes that changed. */
  readonly bytes: number;
  /** Whether `file.content` is binary ({@link isBinaryContent}), checked once per content. */
  readonly isBinary: boolean;
  /** The rendered section, byte-identical to what was counted into `file.tokens`. */
  readonly section: string;
  /** Tokens of the complete (unwindowed) section; unknown for a windowed file after a restore. */
  readonly fullTokens: number | undefined;
  /** The section's code block as last counted, block by block; `undefined` until counted in full. */
  readonly body: CountedBody | undefined;
  readonly openContent: string;
  /** Shared, append-only list of patches since open. */
  readonly patches: string[];
  /** Tie-breaker when callers pass equal sequence numbers. */
  readonly insertion: number;
}

interface TouchEvent {
  seq: number;
  exchange: number;
  at?: string | undefined;
}

interface SectionInput {
  path: string;
  content: string;
  lineCount: number;
  bytes: number;
  edits: number;
  exchange: number;
  budget: number;
  counter: TokenCounter;
  /** Whether `content` is binary, when known. @default undefined (checked) */
  isBinary?: boolean | undefined;
  /** Tokens of the complete section when already known, to avoid counting a huge file again. */
  knownFullTokens?: number | undefined;
  /** The code block of the file's section as last counted: a same content reuses it, an edit its unchanged blocks. */
  previousBody?: CountedBody | undefined;
  /** Characters `content` shares with `previousBody.content` at its start and at its end. */
  shared?: { prefix: number; suffix: number } | undefined;
}

interface Section {
  text: string;
  tokens: number;
  isWindowed: boolean;
  fullTokens: number | undefined;
  /** The code block as counted in full, when it was. */
  body?: CountedBody | undefined;
}

const SECTION_SEPARATOR = '\n\n';
// Lines longer than this are cut inside a head/tail window, so that a minified one-line file
// still shows something.
const LONG_LINE_LIMIT = 2000;
const HEAD_SHARE = 0.6;
const WINDOW_SAFETY = 0.9;
const WINDOW_ATTEMPTS = 6;
// A file of more bytes than this and than MAX_BYTES_PER_TOKEN per budget token is not counted in
// full: no tokenizer packs 16 bytes of ordinary text into one token on average.
const ESTIMATE_MIN_BYTES = 1_048_576;
const MAX_BYTES_PER_TOKEN = 16;
const CHARS_PER_TOKEN = 4;

const LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'ts', tsx: 'tsx', mts: 'ts', cts: 'ts', js: 'js', jsx: 'jsx', mjs: 'js', cjs: 'js',
  py: 'python', pyi: 'python', rb: 'ruby', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin',
  kts: 'kotlin', scala: 'scala', swift: 'swift', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp',
  cxx: 'cpp', hpp: 'cpp', hh: 'cpp', cs: 'csharp', fs: 'fsharp', php: 'php', pl: 'perl',
  lua: 'lua', r: 'r', dart: 'dart', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell',
  ml: 'ocaml', clj: 'clojure', sh: 'bash', bash: 'bash', zsh: 'zsh', ps1: 'powershell',
  sql: 'sql', json: 'json', jsonc: 'jsonc', yaml: 'yaml', yml: 'yaml', toml: 'toml',
  xml: 'xml', html: 'html', htm: 'html', css: 'css', scss: 'scss', less: 'less', md: 'markdown',
  vue: 'vue', svelte: 'svelte', graphql: 'graphql', proto: 'protobuf', tf: 'hcl',
  dockerfile: 'dockerfile', makefile: 'makefile',
};

// File names without an extension that still have an obvious language.
const BARE_NAMES: ReadonlySet<string> = new Set(['dockerfile', 'makefile']);

function unknownFileError(method: string, path: string): InvalidArgumentError {
  return new InvalidArgumentError({
    parameter: 'path',
    value: path,
    code: 'UNKNOWN_FILE',
    message:
      `Scratchpad.${method}(): \`path\` is not an open file, got ${describeValue(path)}. ` +
      'Open it first with open({ path, content, seq, exchange }), or check has(path): files ' +
      'also close when untouched for too long or evicted over budget.',
  });
}

function ordered(states: ReadonlyMap<string, FileState>): FileState[] {
  return [...states.values()].sort(
    (left, right) => left.file.openedAt - right.file.openedAt || left.insertion - right.insertion,
  );
}

function timeOf(at: string | undefined): { touchedTime?: string } {
  return at === undefined ? {} : { touchedTime: at };
}

// Every field but `hash` and `touchedTime`, read one by one so that a lazy hash is not computed.
function withoutTimeAndHash(file: OpenFile): Omit<OpenFile, 'hash' | 'touchedTime'> {
  return {
    path: file.path,
    content: file.content,
    lineCount: file.lineCount,
    tokens: file.tokens,
    isWindowed: file.isWindowed,
    edits: file.edits,
    openedAt: file.openedAt,
    touchedAt: file.touchedAt,
    touchedExchange: file.touchedExchange,
  };
}

// Hashing a file is a pass over all of it (about 100 ms for 10 MB) that most sessions never
// need: `hash` is computed when it is first read (a staleness check, a snapshot), once per content.
// The fields are copied one by one (in the order of OpenFile), not spread: an edit makes one.
function lazyHashFile(fields: Omit<OpenFile, 'hash'>, digest: () => string): OpenFile {
  const file: { -readonly [Key in keyof OpenFile]: OpenFile[Key] } = {
    path: fields.path,
    content: fields.content,
    lineCount: fields.lineCount,
    get hash(): string {
      return digest();
    },
    tokens: fields.tokens,
    isWindowed: fields.isWindowed,
    edits: fields.edits,
    openedAt: fields.openedAt,
    touchedAt: fields.touchedAt,
    touchedExchange: fields.touchedExchange,
  };
  if ('touchedTime' in fields) file.touchedTime = fields.touchedTime;
  return file;
}

function memoHash(content: string): () => string {
  let hash: string | undefined;
  return () => (hash ??= hashContent(content));
}

// Takes persisted state as it is (the facade validates snapshots); only a budget change makes
// the sections, and so the token counts, stale.
function restoreState(options: {
  data: ScratchpadFileData;
  isSameBudget: boolean;
  budget: number;
  counter: TokenCounter;
}): Omit<FileState, 'insertion'> {
  const { data } = options;
  const hash = data.file.hash;
  const bytes = utf8ByteLength(data.file.content);
  const isBinary = isBinaryContent(data.file.content);
  const base = { openContent: data.openContent, patches: data.patches.slice(), digest: () => hash, bytes, isBinary, body: undefined };
  if (options.isSameBudget) {
    const fullTokens = data.file.isWindowed ? undefined : data.file.tokens;
    return { ...base, file: data.file, section: data.section, fullTokens };
  }
  const section = buildSection({
    ...sectionInput(data.file, bytes),
    isBinary,
    exchange: data.file.touchedExchange,
    budget: options.budget,
    counter: options.counter,
  });
  return {
    ...base,
    file: { ...data.file, tokens: section.tokens, isWindowed: section.isWindowed },
    section: section.text,
    fullTokens: section.fullTokens,
  };
}

function sectionInput(file: OpenFile, bytes: number): Omit<SectionInput, 'exchange' | 'budget' | 'counter'> {
  return {
    path: file.path,
    content: file.content,
    lineCount: file.lineCount,
    bytes,
    edits: file.edits,
  };
}

// Renders a file's section and counts it once; when it exceeds the budget, renders the largest
// head/tail window that fits (a few counts of budget-sized text).
function buildSection(input: SectionInput): Section {
  const { path, content, lineCount, counter, budget } = input;
  const isBinary = input.isBinary ?? isBinaryContent(content);
  const header =
    `### ${displayPath(path)} (` +
    (isBinary
      ? `binary, ${formatCount(input.bytes)} bytes`
      : `${formatCount(lineCount)} ${plural(lineCount, 'line')}`) +
    `, ${formatCount(input.edits)} ${plural(input.edits, 'edit')}, ` +
    `last touched turn ${input.exchange})\n`;
  if (isBinary) {
    const text = `${header}[binary file, ${formatCount(input.bytes)} bytes, not shown]`;
    const tokens = counter.count(text);
    return { text, tokens, isWindowed: false, fullTokens: tokens };
  }
  const previous = input.previousBody;
  // A touch re-renders the same content under a new header: its code block is the one counted.
  const isSameContent = previous !== undefined && previous.content === content;
  // An edit looks for backtick runs in the changed lines only (the rest is as it was).
  const closing = isSameContent
    ? previous.closing
    : previous !== undefined && input.shared !== undefined
      ? fenceAfterEdit({ before: previous.content, previous: previous.closing, content, shared: input.shared })
      : fenceFor(content);
  const opening = isSameContent ? previous.opening : `${closing}${languageFor(path)}\n`;
  const body = isSameContent ? previous.body : `${opening}${withFinalNewline(content)}${closing}`;
  const full = `${header}${body}`;
  // The header (with its "last touched turn N") changes far more often than the body: counted
  // apart, a touch re-counts one line and the body's count is the one already made. An edit
  // counts the body block by block, re-cutting only the blocks around the changed lines.
  let blocks: BlockCounts | undefined;
  const countPart = (part: string): number => {
    if (part !== body) return counter.count(part);
    blocks ??= isSameContent ? previous.blocks : countBlocks(counter, body, previous === undefined ? undefined : sharedBodyEnds({ previous, opening, closing, content, shared: input.shared }));
    return blocks?.total ?? counter.count(body);
  };
  const countFull = (): number => countJoined(counter, [header, body], countPart);
  const withBody = (section: Section): Section => (blocks === undefined ? section : { ...section, body: { content, opening, closing, body, blocks } });
  // Counting a multi-megabyte file only to learn that it does not fit costs hundreds of
  // milliseconds per edit. Far above the budget an estimate decides; below that, the body is
  // counted only as far as it takes to learn that it does not fit, and its size is estimated
  // from that part. A file that fits is counted exactly, and so is the window that is shown.
  const isHuge = input.knownFullTokens === undefined && input.bytes > Math.max(ESTIMATE_MIN_BYTES, budget * MAX_BYTES_PER_TOKEN);
  const counted = input.knownFullTokens !== undefined || isHuge ? undefined : countWithin(body, { counter, limit: budget, countWhole: countFull });
  const isEstimated = isHuge || counted?.isExact === false;
  const tokens =
    input.knownFullTokens ??
    (counted === undefined
      ? Math.ceil(full.length / CHARS_PER_TOKEN)
      : counted.isExact
        ? counted.tokens
        : counter.count(header) + estimateTokens(body, counted));
  if (tokens <= budget) {
    // A known count may belong to a slightly different header: count this exact text.
    const exact = input.knownFullTokens === undefined ? tokens : countFull();
    return withBody({ text: full, tokens: exact, isWindowed: false, fullTokens: exact });
  }

  const lines = splitLines(content);
  const frame = { header, opening, closing, lines, budget, fullTokens: tokens, isEstimated };
  let charBudget = Math.floor((budget / tokens) * full.length * WINDOW_SAFETY);
  for (let attempt = 0; attempt < WINDOW_ATTEMPTS; attempt += 1) {
    const window = pickWindow(lines, charBudget);
    const text = renderWindow(frame, window);
    const windowTokens = countJoined(counter, [header, text.slice(header.length)]);
    if (windowTokens <= budget || window.head + window.tail === 0) {
      return withBody({ text, tokens: windowTokens, isWindowed: true, fullTokens: tokens });
    }
    charBudget = Math.floor(charBudget * (budget / windowTokens) * WINDOW_SAFETY);
  }
  const text = renderWindow(frame, { head: 0, tail: 0 });
  return withBody({ text, tokens: counter.count(text), isWindowed: true, fullTokens: tokens });
}

function languageFor(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  const key = dot > 0 ? lower.slice(dot + 1) : lower;
  if (dot <= 0 && !BARE_NAMES.has(key)) return '';
  return Object.hasOwn(LANGUAGES, key) ? (LANGUAGES[key] ?? '') : '';
}

function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

// Lines including their `\n` (the last one may lack it).
function splitLines(content: string): string[] {
  const lines = content.split('\n').map((line) => `${line}\n`);
  if (content.endsWith('\n')) lines.pop();
  else lines[lines.length - 1] = content.slice(content.lastIndexOf('\n') + 1);
  return lines;
}

function shownLine(line: string): string {
  const body = line.endsWith('\n') ? line.slice(0, -1) : line;
  if (body.length <= LONG_LINE_LIMIT) return line;
  let cut = LONG_LINE_LIMIT;
  const code = body.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${body.slice(0, cut)} … [line cut: ${formatCount(body.length - cut)} more characters]\n`;
}

function pickWindow(lines: readonly string[], charBudget: number): { head: number; tail: number } {
  const headLimit = Math.floor(charBudget * HEAD_SHARE);
  let used = 0;
  let head = 0;
  while (head < lines.length) {
    const length = shownLine(lines[head] ?? '').length;
    if (used + length > headLimit) break;
    used += length;
    head += 1;
  }
  let tail = 0;
  while (head + tail < lines.length) {
    const length = shownLine(lines[lines.length - 1 - tail] ?? '').length;
    if (used + length > charBudget) break;
    used += length;
    tail += 1;
  }
  return { head, tail };
}

function renderWindow(
  frame: {
    header: string;
    opening: string;
    closing: string;
    lines: readonly string[];
    budget: number;
    fullTokens: number;
    /** Whether `fullTokens` is an estimate from the file's size. */
    isEstimated: boolean;
  },
  window: { head: number; tail: number },
): string {
  const { lines } = frame;
  const total = lines.length;
  const headLines = lines.slice(0, window.head).map(shownLine);
  const tailLines = lines.slice(total - window.tail).map(shownLine);
  const isCut =
    headLines.some((line, index) => line !== lines[index]) ||
    tailLines.some((line, index) => line !== lines[total - window.tail + index]);
  const hidden = total - window.head - window.tail;
  const ranges: string[] = [];
  if (window.head > 0) ranges.push(lineRange(1, window.head));
  if (window.tail > 0) ranges.push(lineRange(total - window.tail + 1, total));
  const label = window.head + window.tail === 1 ? 'line' : 'lines';
  const shown = ranges.length === 0 ? 'no lines shown' : `${label} ${ranges.join(' and ')} shown`;
  const marker =
    `[… ${formatCount(hidden)} ${plural(hidden, 'line')} not shown: file (` +
    `${frame.isEstimated ? 'about ' : ''}${formatCount(frame.fullTokens)} tokens) exceeds the scratchpad budget of ` +
    `${formatCount(frame.budget)} tokens; ${shown}` +
    `${isCut ? `, lines over ${formatCount(LONG_LINE_LIMIT)} characters cut` : ''} …]\n`;
  const body = `${headLines.join('')}${marker}${withFinalNewline(tailLines.join(''))}`;
  return `${frame.header}${frame.opening}${body}${frame.closing}`;
}

function lineRange(from: number, to: number): string {
  return from === to ? formatCount(from) : `${formatCount(from)}–${formatCount(to)}`;
}
