// Replays a recorded coding session (the JSONL event schema of the synthetic and real corpora)
// through a ContextManager, the way an agent loop would record it.
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import type { ContextManager, JsonValue } from '../src/index.js';

/** One line of a session file. Real transcripts use the extended variants. */
export interface SessionLine {
  readonly type: string;
  readonly ts?: string;
  readonly text?: string;
  readonly path?: string;
  readonly content?: string | null;
  readonly partial?: boolean;
  readonly before?: string | null;
  readonly after?: string | null;
  readonly search?: string;
  readonly replace?: string;
  readonly patch?: string | null;
  readonly cmd?: string;
  readonly output?: string;
  readonly exit_code?: number | null;
  readonly name?: string;
  readonly input?: unknown;
  readonly id?: string;
  readonly probes?: readonly string[];
  readonly answer_keywords?: readonly string[];
  readonly category?: string;
  readonly supersedes?: string;
  readonly final?: boolean;
  readonly [key: string]: unknown;
}

/** Reads a `.jsonl` or `.jsonl.gz` session file. */
export function readSession(file: string): SessionLine[] {
  const raw = readFileSync(file);
  const text = file.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as SessionLine);
}

/** What a replay did with the lines it could not map one to one. */
export interface ReplayStats {
  /** Lines recorded, by type. */
  readonly recorded: Record<string, number>;
  /** Lines not recorded (harness-only or unknown), by reason. */
  readonly skipped: Record<string, number>;
}

/** Options of {@link createReplayer}. */
export interface ReplayerOptions {
  /**
   * Records a re-read of a file that is already open the way many agent loops do: an assistant
   * tool call whose only answer is the scratchpad update, never a tool result. @default false
   */
  hasUnansweredRereads?: boolean | undefined;
}

/** Records one session line; returns false when the line is harness-only (meta, probe, checkpoint). */
export function createReplayer(manager: ContextManager, options: ReplayerOptions = {}): {
  apply(line: SessionLine): boolean;
  readonly stats: ReplayStats;
  /** Files touched by the session, with their current content when known. */
  readonly contents: Map<string, string>;
} {
  const stats = { recorded: {} as Record<string, number>, skipped: {} as Record<string, number> };
  const contents = new Map<string, string>();
  let callNumber = 0;
  const count = (bucket: Record<string, number>, key: string): void => {
    bucket[key] = (bucket[key] ?? 0) + 1;
  };
  // Tracked from events: state() copies the whole archive, which would make a replay quadratic.
  const open = new Set(manager.state().files.map((file) => file.path));
  manager.on('file-open', (event) => open.add(event.file.path));
  manager.on('file-close', (event) => open.delete(event.path));
  const isOpen = (path: string): boolean => open.has(path);
  const at = (line: SessionLine): { at?: string } => (typeof line.ts === 'string' ? { at: withZone(line.ts) } : {});
  // Every input is built here from the line's strings, so it is plain JSON already and is passed
  // as it is (a JSON round trip per call would be timed as recording work by `bench:ingest`).
  const toolCall = (line: SessionLine, name: string, input: Record<string, JsonValue>, output: string, isError: boolean): void => {
    const id = `call-${(callNumber += 1)}`;
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id, name, input }], ...at(line) });
    manager.addToolResult({ callId: id, output, isError, ...at(line) });
  };
  // After an edit whose result the transcript does not show, the file's content is unknown: close
  // it rather than keep presenting the old content as current.
  const forget = (line: SessionLine, path: string): void => {
    contents.delete(path);
    if (isOpen(path)) {
      manager.closeFile({ path, ...at(line) });
      count(stats.skipped, 'file closed: content no longer known');
    }
  };
  const setContent = (line: SessionLine, path: string, content: string, reason?: string): void => {
    if (isOpen(path)) manager.updateFile({ path, content, ...(reason === undefined ? {} : { reason }), ...at(line) });
    else manager.openFile({ path, content, ...at(line) });
    contents.set(path, content);
  };

  return {
    stats,
    contents,
    apply(line) {
      switch (line.type) {
        case 'user':
        case 'assistant':
          manager.addMessage({ role: line.type, content: line.text ?? '', ...at(line) });
          break;
        case 'file_read': {
          const path = line.path ?? 'unknown';
          if (typeof line.content === 'string' && line.partial !== true) {
            if (options.hasUnansweredRereads === true && isOpen(path)) {
              const id = `call-${(callNumber += 1)}`;
              manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id, name: 'read_file', input: { path } }], ...at(line) });
              count(stats.skipped, 're-read as an unanswered tool call');
            }
            setContent(line, path, line.content);
          } else if (typeof line.content === 'string') {
            toolCall(line, 'read_file', { path, partial: true }, line.content, false);
            count(stats.skipped, 'partial read shown as a tool result');
          } else {
            manager.addNote({ content: `[read ${path}; content not logged]`, ...at(line) });
            count(stats.skipped, 'read without content (note only)');
          }
          break;
        }
        case 'file_edit': {
          const path = line.path ?? 'unknown';
          const error = typeof line['error'] === 'string' ? line['error'] : undefined;
          if (error !== undefined || line['applied'] === false) {
            // The edit failed: the file is unchanged, the attempt is history.
            toolCall(line, 'edit_file', editInput(line, path), error ?? 'not applied', true);
            count(stats.skipped, 'failed edit (tool call; content unchanged)');
          } else if (typeof line.after === 'string') {
            const before = typeof line.before === 'string' ? line.before : contents.get(path);
            if (before !== undefined && !isOpen(path)) manager.openFile({ path, content: before, ...at(line) });
            setContent(line, path, line.after);
          } else if (typeof line.search === 'string' && typeof line.replace === 'string') {
            const current = contents.get(path);
            if (current !== undefined && line.search.length > 0 && current.includes(line.search)) {
              // The harness knows the file (an integration would read it from disk): reopen it if
              // it was closed, so the edit is recorded as a diff against its current content.
              if (!isOpen(path)) manager.openFile({ path, content: current, ...at(line) });
              const replacement = line.replace;
              setContent(line, path, current.replace(line.search, () => replacement));
            } else {
              toolCall(line, 'edit_file', editInput(line, path), 'applied', false);
              count(stats.skipped, 'search/replace on unknown content (tool call)');
              forget(line, path);
            }
          } else {
            manager.addNote({ content: `[edited ${path}; ${typeof line.patch === 'string' ? 'patch' : 'content'} not logged]`, ...at(line) });
            count(stats.skipped, 'edit without content (note only)');
            forget(line, path);
          }
          break;
        }
        case 'command':
          toolCall(line, 'bash', { command: line.cmd ?? '' }, line.output ?? '', typeof line.exit_code === 'number' && line.exit_code !== 0);
          break;
        case 'tool':
          toolCall(line, line.name ?? 'tool', { input: typeof line.input === 'string' ? line.input : JSON.stringify(line.input ?? null) }, typeof line.output === 'string' ? line.output : JSON.stringify(line.output ?? ''), typeof line['error'] === 'string');
          break;
        case 'meta':
        case 'probe':
        case 'checkpoint':
          return false;
        default:
          count(stats.skipped, `unknown event type ${line.type}`);
          return false;
      }
      count(stats.recorded, line.type);
      return true;
    },
  };
}

// --- Internal helpers ---

// Some transcripts (aider) log local times without a zone; Mobius wants ISO-8601 with one.
function withZone(ts: string): string {
  // The calls of one line share its timestamp: the same string is handed out again, so that the
  // manager's check of the last timestamp compares it by identity.
  if (ts === lastStamp) return lastZoned;
  lastStamp = ts;
  lastZoned = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(ts) ? `${ts}Z` : ts;
  return lastZoned;
}
let lastStamp: string | undefined;
let lastZoned = '';

function editInput(line: SessionLine, path: string): Record<string, JsonValue> {
  return {
    path,
    ...(typeof line.search === 'string' ? { search: line.search } : {}),
    ...(typeof line.replace === 'string' ? { replace: line.replace } : {}),
    ...(typeof line.patch === 'string' ? { patch: line.patch } : {}),
  };
}
