import type { CloseFileInput, MessageInput, OpenFileInput, SessionState, ToolResultInput, UpdateFileInput } from './context-manager-inputs.js';
import { InvalidArgumentError, describeValue } from './errors.js';
import type { EventRelay } from './event-relay.js';
import type { FileOversizeEvent, GraduatedItem, GraduationReport, SecretRedactEvent } from './events.js';
import type { GraduationEvent, GraduationSubject } from './graduation/graduator.js';
import { tierLimits } from './graduation/tier-limits.js';
import type { BlockUsage } from './graduation/tier-limits.js';
import type { ProjectMemory, ResolvedOptions } from './options.js';
import type { SessionPersistence } from './persistence/session-persistence.js';
import { createRedactionScope } from './redaction/redactor.js';
import type { RedactionScope } from './redaction/redactor.js';
import type { SecretRecord } from './redaction/secret-ledger.js';
import { utf8ByteLength } from './scratchpad/diff-record.js';
import { hashContent } from './scratchpad/scratchpad.js';
import type { SessionEvent } from './session-event.js';
import type { EventEffects, SessionView, SessionViewData } from './session-view.js';
import { createSessionView } from './session-view.js';
import type { RecallIndex } from './tiers/recall-index.js';
import type { TokenCounter } from './tokens/token-counter.js';
import type { Entry, Fact, JsonValue, OpenFile, Pin } from './types.js';

/**
 * Turns validated inputs into session events and commits them: redacts secrets, closes tool
 * calls the agent left unanswered, auto-closes and evicts files, applies each event to the
 * session view (the fold of the log), queues it for storage and emits what changed. Graduations
 * are committed here too, from the {@link GraduationSubject} it offers the Graduator.
 * @internal
 */
export class SessionRecorder {
  readonly #options: ResolvedOptions;
  readonly #counter: TokenCounter;
  readonly #events: EventRelay;
  readonly #persistence: SessionPersistence;
  readonly #recall: RecallIndex;
  #view: SessionView;
  #prefixTokens: number | undefined;
  #lastReport: GraduationReport | undefined;
  #subject: GraduationSubject | undefined;
  #lastLimits: { readonly usage: BlockUsage; readonly limits: ReturnType<typeof tierLimits> } | undefined;

  constructor(options: { options: ResolvedOptions; counter: TokenCounter; events: EventRelay; persistence: SessionPersistence; recall: RecallIndex; initialState: SessionViewData | undefined }) {
    this.#options = options.options;
    this.#counter = options.counter;
    this.#events = options.events;
    this.#persistence = options.persistence;
    this.#recall = options.recall;
    this.#view = this.#createView(options.initialState);
    this.#recall.add(this.#view.tiers.archive.items());
    this.#recall.addSpilled(this.#view.tiers.archive.spilled().map((group) => group.seq));
  }

  /** The session view: the fold of every committed event. */
  get view(): SessionView {
    return this.#view;
  }

  /** The report of the last graduation committed. */
  get lastReport(): GraduationReport | undefined {
    return this.#lastReport;
  }

  /** Replaces the view (rollback), keeping secret placeholders given since and seqs monotonic. */
  restore(data: SessionViewData): void {
    const floor = this.#view.lastSeq;
    this.#view = this.#createView({ ...data, lastSeq: Math.max(data.lastSeq, floor), secrets: [...(data.secrets ?? []), ...this.#view.secrets.toJSON()] });
    this.#recall.reset(this.#view.tiers.archive.items(), this.#view.tiers.archive.spilled().map((group) => group.seq));
  }

  /** Records the facts and pins of earlier sessions (redacted). */
  importProjectMemory(memory: ProjectMemory): void {
    const scope = this.#redaction();
    const facts = memory.facts.map((fact, index): Fact => ({
      ...fact,
      key: scope.text(fact.key, `facts[${index}].key`),
      value: scope.text(fact.value, `facts[${index}].value`),
      history: fact.history.map((version, at) => ({ ...version, value: scope.text(version.value, `facts[${index}].history[${at}].value`) })),
    }));
    const pins = memory.pins.map((pin, index) => scope.text(pin, `pins[${index}]`));
    this.#record({ type: 'import', facts, pins, ...secretsOf(scope) });
    this.#reportRedaction('projectMemory', scope);
  }

  addMessage(input: MessageInput): Entry {
    // Validated as plain JSON of bounded depth; copied so later changes by the caller do not leak in.
    // Redaction rebuilds every array and object it walks: only without it is a copy made here.
    const isCopied = this.#options.redact !== false;
    const toolCalls = input.toolCalls?.map((call) => ({ id: call.id, name: call.name, input: isCopied ? (call.input as JsonValue) : (structuredClone(call.input) as JsonValue) }));
    this.#orphanPendingCalls({ calls: toolCalls, at: input.at });
    const scope = this.#redaction();
    const content = scope.text(input.content, 'content');
    const redactedCalls = toolCalls?.map((call, index) => ({ id: call.id, name: call.name, input: scope.json(call.input, `toolCalls[${index}].input`) }));
    const event: Draft<'message'> = { type: 'message', role: input.role, content };
    if (redactedCalls !== undefined && redactedCalls.length > 0) event.toolCalls = redactedCalls;
    const effects = this.#record(this.#withTail(event, input.at, scope));
    this.#reportRedaction('addMessage', scope);
    if (input.role === 'user') {
      for (const path of this.#view.scratchpad.filesToAutoClose({ exchange: this.#view.exchange })) {
        this.#record({ type: 'file-close', path, cause: 'auto', ...this.#timestamp(input.at) });
      }
    }
    return effects.entry as Entry;
  }

  addToolResult(input: ToolResultInput): Entry {
    const scope = this.#redaction();
    const output = scope.text(input.output, 'output');
    const event: Draft<'tool-result'> = { type: 'tool-result', callId: input.callId, toolName: this.#view.toolCall(input.callId)?.name ?? '', output };
    if (input.isError !== undefined) event.isError = input.isError;
    const effects = this.#record(this.#withTail(event, input.at, scope));
    this.#reportRedaction('addToolResult', scope);
    return effects.entry as Entry;
  }

  openFile(input: OpenFileInput): OpenFile {
    const scope = this.#redaction();
    const oversize = this.#oversize('openFile', input);
    const content = oversize?.digest ?? this.#redactFileContent(scope, input.path, input.content);
    this.#record({ type: 'file-open', path: input.path, content, ...callIdOf(input), ...this.#timestamp(input.at), ...secretsOf(scope) });
    this.#reportRedaction('openFile', scope);
    if (oversize !== undefined) this.#events.emit('file-oversize', oversize.event);
    return this.#afterFileChange(input.path, input.at);
  }

  updateFile(input: UpdateFileInput): OpenFile {
    const scope = this.#redaction();
    const oversize = this.#oversize('updateFile', input);
    const content = oversize?.digest ?? this.#redactFileContent(scope, input.path, input.content);
    const reason = input.reason === undefined ? undefined : scope.text(input.reason, 'reason');
    this.#record({
      type: 'file-update',
      path: input.path,
      content,
      ...(reason === undefined ? {} : { reason }),
      ...callIdOf(input),
      ...this.#timestamp(input.at),
      ...secretsOf(scope),
    });
    this.#reportRedaction('updateFile', scope);
    if (oversize !== undefined) this.#events.emit('file-oversize', oversize.event);
    return this.#afterFileChange(input.path, input.at);
  }

  closeFile(input: CloseFileInput): void {
    this.#record({ type: 'file-close', path: input.path, cause: 'explicit', ...callIdOf(input), ...this.#timestamp(input.at) });
  }

  addNote(input: { content: string; at?: string | undefined }): Entry {
    const scope = this.#redaction();
    const effects = this.#record(this.#withTail<Draft<'note'>>({ type: 'note', content: scope.text(input.content, 'content') }, input.at, scope));
    this.#reportRedaction('addNote', scope);
    return effects.entry as Entry;
  }

  /** Tells whether `content` differs from the held (redacted) content; nothing is recorded. */
  isStale(input: { path: string; content: string }): boolean {
    const held = this.#oversize('updateFile', input)?.digest ?? this.#redactFileContent(this.#redaction(), input.path, input.content);
    const stale = this.#view.scratchpad.isStale({ path: input.path, content: held });
    if (stale === undefined) throw unknownFile('isStale', input.path);
    return stale;
  }

  redact(text: string): string {
    return this.#redaction().text(text, 'text');
  }

  fileHistory(path: string): { readonly openContent: string; readonly patches: readonly string[] } {
    if (!this.#view.scratchpad.has(path)) throw unknownFile('fileHistory', path);
    return this.#view.scratchpad.history(path);
  }

  pin(text: string): Pin {
    const seq = this.#view.lastSeq + 1;
    const scope = this.#redaction();
    const redacted = scope.text(text, 'text');
    const cost = this.#counter.count(`- ${redacted}`) + 1;
    const used = this.#view.tiers.renderPins().tokens;
    const limit = this.#options.budgets.pins;
    if (used + cost > limit) {
      throw new InvalidArgumentError({
        parameter: 'text',
        value: redacted,
        code: 'BUDGET_TOO_SMALL',
        message: `pin(): the pins would use ${used + cost} tokens, more than \`budgets.pins\` (${limit}). Pins are always shown in full; unpin({ id }) one you no longer need, shorten the text, or raise budgets.pins.`,
      });
    }
    const effects = this.#record({ type: 'pin', pinId: `pin-${seq}`, text: redacted, ...secretsOf(scope) });
    this.#reportRedaction('pin', scope);
    return (effects.pin as { pin: Pin }).pin;
  }

  unpin(id: string): void {
    if (!this.#view.tiers.pins().some((pin) => pin.id === id)) {
      throw new InvalidArgumentError({ parameter: 'id', value: id, message: `unpin(): no pin has id ${describeValue(id)}. Use an id returned by pin().` });
    }
    this.#record({ type: 'unpin', pinId: id });
  }

  /** What the Graduator reads and commits to: this session's T0 and T1 (one object, made once: it reads the current view). */
  graduationSubject(): GraduationSubject {
    this.#subject ??= this.#createSubject();
    return this.#subject;
  }

  #createSubject(): GraduationSubject {
    const tiers = (): SessionView['tiers'] => this.#view.tiers;
    return {
      entries: () => tiers().entries(),
      summaries: () => tiers().summaries(),
      get workingTokens() {
        return tiers().workingTokens;
      },
      get summaryTokens() {
        return tiers().summaryTokens;
      },
      limits: () => this.#limits(),
      nextSeq: () => this.#view.lastSeq + 1,
      commit: (event, details) => this.#commitGraduation(event, details.boundary),
    };
  }

  /** A read-only copy of everything the session holds. */
  state(): SessionState {
    const view = this.#view;
    const tiers = view.tiers;
    return {
      lastSeq: view.lastSeq,
      exchange: view.exchange,
      entries: [...tiers.entries()],
      summaries: [...tiers.summaries()],
      facts: tiers.facts.facts(),
      tasks: tiers.facts.tasks(),
      pins: tiers.pins(),
      files: [...view.scratchpad.files()],
      archive: [...tiers.archive.items()],
      spilledArchiveItems: tiers.archive.size - tiers.archive.memorySize,
      entrySeqs: [...view.entrySeqs()],
      tokens: { working: tiers.workingTokens, summaries: tiers.summaryTokens, scratchpad: view.scratchpad.totalTokens() },
    };
  }

  /** Facts (with history) and pins, as plain data for the next session of the project. */
  projectMemory(): ProjectMemory {
    const tiers = this.#view.tiers;
    return structuredClone({ formatVersion: 1 as const, facts: tiers.facts.facts(), pins: tiers.pins().map((pin) => pin.text) });
  }

  // --- Internal helpers ---

  #record(event: DistributiveOmit<SessionEvent, 'seq'>): EventEffects {
    // Each event is a fresh literal of its call site: numbered in place rather than copied.
    const full = event as SessionEvent;
    (full as { seq: number }).seq = this.#view.lastSeq + 1;
    const effects = this.#view.apply(full);
    this.#persistence.persist(full);
    this.#emitEffects(effects);
    this.#persistence.checkAutoSave({ event: full, tokens: () => this.#windowTokens(), budget: this.#options.budget });
    return effects;
  }

  #windowTokens(): number {
    const tiers = this.#view.tiers;
    return tiers.workingTokens + tiers.summaryTokens + this.#view.scratchpad.totalTokens() + tiers.renderPins().tokens;
  }

  #createView(initial: SessionViewData | undefined): SessionView {
    const options = this.#options;
    return createSessionView({
      counter: this.#counter,
      maxEntryTokens: options.maxEntryTokens,
      scratchpadBudget: options.budgets.scratchpad,
      autoCloseAfter: options.autoCloseAfter,
      maxDiffBytes: options.maxDiffBytes,
      isPathCaseInsensitive: options.pathCase === 'insensitive',
      initial,
    });
  }

  // Asked after every recording call (is a graduation due?): the limits of the last usage are
  // kept, and computed again only when a block's size changed.
  #limits(): ReturnType<typeof tierLimits> {
    const tiers = this.#view.tiers;
    this.#prefixTokens ??= this.#counter.count(this.#options.systemPrompt);
    const usage = { prefix: this.#prefixTokens, facts: tiers.facts.totalTokens, pins: tiers.renderPins().tokens, scratchpad: this.#view.scratchpad.totalTokens(), summaries: tiers.summaryTokens };
    const last = this.#lastLimits;
    if (last !== undefined && isSameUsage(last.usage, usage)) return last.limits;
    const limits = tierLimits({ budget: this.#options.budget, budgets: this.#options.budgets, elastic: this.#options.elasticTiers, usage });
    this.#lastLimits = { usage, limits };
    return limits;
  }

  // Ends an event of a recording call with the fields every such event may end with, `at` then
  // `secrets` (the key order events have always had), set in place: spreading small objects into
  // the literal cost more than building the rest of the event.
  #withTail<T extends { at?: string | undefined; secrets?: readonly SecretRecord[] | undefined }>(event: T, at: string | undefined, scope: RedactionScope): T {
    const value = at ?? this.#options.clock?.();
    if (value !== undefined) event.at = value;
    if (scope.records.length > 0) event.secrets = [...scope.records];
    return event;
  }

  #timestamp(at: string | undefined): { at?: string } {
    const value = at ?? this.#options.clock?.();
    return value === undefined ? {} : { at: value };
  }

  // A file over `maxFileBytes` is held as a digest line: one pass for its size, lines and hash,
  // and no scan, diff or token count of its content. The digest holds no text of the file.
  #oversize(method: FileOversizeEvent['method'], input: { path: string; content: string }): { digest: string; event: FileOversizeEvent } | undefined {
    const limit = this.#options.maxFileBytes;
    // UTF-8 takes at most three bytes per UTF-16 unit: most files are ruled out without a pass.
    if (input.content.length * 3 <= limit) return undefined;
    const bytes = utf8ByteLength(input.content);
    if (bytes <= limit) return undefined;
    const hash = hashContent(input.content);
    const lines = countLines(input.content);
    return {
      digest: `[file held as a digest: ${bytes} bytes, ${lines} lines, fnv1a-64 ${hash}; larger than maxFileBytes (${limit})]`,
      event: { path: input.path, method, bytes, limit, hash },
    };
  }

  // One scope per recorded input: its new ledger records travel with the event, so the ledger
  // changes only if the event is committed.
  #redaction(): RedactionScope {
    return createRedactionScope({ config: this.#options.redact, ledger: this.#view.secrets });
  }

  // An open file's held content is already redacted: only the lines that changed (and their
  // surroundings) need a scan, so an edit of a large file costs what the edit costs.
  #redactFileContent(scope: RedactionScope, path: string, content: string): string {
    const previous = this.#view.scratchpad.get(path)?.content;
    return previous === undefined ? scope.text(content, 'content') : scope.update({ previous, next: content, field: 'content' });
  }

  #reportRedaction(method: SecretRedactEvent['method'], scope: RedactionScope): void {
    const redactions = scope.redactions;
    if (redactions.length > 0) this.#events.emit('secret-redact', { method, seq: this.#view.lastSeq, redactions });
  }

  // Providers require a call's results right after it: a message recorded while calls are pending
  // means the agent moved on. Closing them (a logged marker) lets graduation cut after them.
  #orphanPendingCalls(options: { calls: readonly { id: string }[] | undefined; at: string | undefined }): void {
    const pending = this.#view.pendingToolCalls();
    if (pending.length === 0) return;
    const newIds = options.calls === undefined || options.calls.length === 0 ? NO_IDS : new Set(options.calls.map((call) => call.id));
    for (const call of pending) {
      const isReused = newIds.has(call.id);
      if (!isReused && call.messagesAfter + 1 < this.#options.orphanCallsAfter) continue;
      this.#record({
        type: 'tool-call-orphan',
        callId: call.id,
        callSeq: call.seq,
        toolName: call.name,
        reason: isReused ? 'id-reused' : 'later-message',
        ...this.#timestamp(options.at),
      });
    }
  }

  #afterFileChange(path: string, at: string | undefined): OpenFile {
    for (const evicted of this.#view.scratchpad.filesToEvict({ keep: path })) {
      this.#record({ type: 'file-close', path: evicted, cause: 'evicted', ...this.#timestamp(at) });
    }
    return this.#view.scratchpad.get(path) as OpenFile;
  }

  #emitEffects(effects: EventEffects): void {
    const emit = this.#events.emit;
    if (effects.entry !== undefined) emit('entry-add', { entry: effects.entry });
    if (effects.file !== undefined) {
      const payload = { file: effects.file.file, lines: effects.file.lines, isDiffSkipped: effects.file.isDiffSkipped };
      emit(effects.file.kind === 'open' ? 'file-open' : 'file-update', payload);
    }
    if (effects.closed !== undefined) emit('file-close', effects.closed);
    if (effects.orphan !== undefined) emit('tool-call-orphan', { ...effects.orphan, seq: this.#view.lastSeq });
    if (effects.pin !== undefined) {
      emit(effects.pin.kind === 'add' ? 'pin-add' : 'pin-remove', { pin: effects.pin.pin });
      if (effects.pin.kind === 'remove') {
        const archived = { type: 'pin' as const, reason: 'unpinned' as const, pin: effects.pin.pin, archivedAt: this.#view.lastSeq };
        this.#recall.add([archived]);
        emit('archive-add', { items: [archived] });
      }
    }
  }

  // Returns the tokens the graduation took out of T0 + T1 (what left, less the new summary).
  #commitGraduation(event: GraduationEvent, boundary: string | undefined): number {
    const effects = this.#view.apply(event);
    this.#persistence.persist(event);
    const graduation = effects.graduation;
    if (graduation === undefined) return 0;
    const removed: GraduatedItem[] = graduation.removed.map((item) =>
      item.type === 'entry'
        ? { id: item.entry.seq, kind: item.entry.kind, tokens: item.entry.tokens, archivedAs: graduation.summary.id }
        : item.type === 'summary'
          ? { id: item.summary.id, kind: 'summary', tokens: item.summary.tokens, archivedAs: graduation.summary.id }
          : { id: 'unknown', kind: item.type, tokens: 0, archivedAs: graduation.summary.id },
    );
    const tokensIn = removed.reduce((sum, item) => sum + item.tokens, 0);
    const report: GraduationReport = {
      seq: event.seq,
      mode: event.mode,
      source: event.source,
      removed,
      summary: graduation.summary,
      factsAdded: graduation.facts.added.map((fact) => fact.key),
      factsSuperseded: graduation.facts.superseded.map((change) => change.fact.key),
      tasks: graduation.tasks,
      tokensIn,
      tokensOut: graduation.summary.tokens + graduation.facts.added.reduce((sum, fact) => sum + fact.tokens, 0),
      boundary,
      summarizer: event.summarizer,
      isFallback: event.isFallback,
    };
    this.#lastReport = report;
    const archived = [...graduation.removed, ...graduation.facts.archived];
    this.#recall.add(archived);
    const emit = this.#events.emit;
    emit('archive-add', { items: archived });
    for (const fact of graduation.facts.added) emit('fact-add', { fact });
    for (const change of graduation.facts.superseded) emit('fact-supersede', { fact: change.fact, previous: change.previous });
    for (const task of graduation.tasks) emit('task-update', { task });
    emit('graduation-end', report);
    this.#events.reportBackground();
    return tokensIn - graduation.summary.tokens;
  }
}

// --- Internal helpers ---

const NO_IDS: ReadonlySet<string> = new Set();

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event of type `K` being built (fields still settable), without its seq. */
type Draft<K extends SessionEvent['type'] = 'message' | 'tool-result' | 'note'> = { -readonly [Key in keyof Extract<DistributiveOmit<SessionEvent, 'seq'>, { type: K }>]: Extract<DistributiveOmit<SessionEvent, 'seq'>, { type: K }>[Key] };

function isSameUsage(left: BlockUsage, right: BlockUsage): boolean {
  return left.prefix === right.prefix && left.facts === right.facts && left.pins === right.pins && left.scratchpad === right.scratchpad && left.summaries === right.summaries;
}

function secretsOf(scope: RedactionScope): { secrets?: readonly SecretRecord[] } {
  return scope.records.length === 0 ? {} : { secrets: [...scope.records] };
}

function callIdOf(input: { callId?: string | undefined }): { callId?: string } {
  return input.callId === undefined ? {} : { callId: input.callId };
}

function unknownFile(method: string, path: string): InvalidArgumentError {
  return new InvalidArgumentError({
    parameter: 'path',
    value: path,
    code: 'UNKNOWN_FILE',
    message: `${method}(): ${describeValue(path)} is not open in the scratchpad. Check the path against state().files.`,
  });
}

function countLines(content: string): number {
  let lines = 1;
  for (let index = content.indexOf('\n'); index !== -1; index = content.indexOf('\n', index + 1)) lines += 1;
  return lines;
}
