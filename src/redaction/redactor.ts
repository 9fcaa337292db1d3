import { z } from 'zod';
import { detachedCopy } from '../detached-copy.js';
import type { JsonValue } from '../types.js';
import { parse } from '../validation.js';
import type { Detector, SecretFinding, TriggerScan } from './detectors.js';
import { compiledPattern } from './compiled-patterns.js';
import { builtInDetectors, createTriggerScan, isCredential, longTokenRuns, patternDetector } from './detectors.js';
import { rescanRegions } from './rescan-regions.js';
import type { SecretLedger, SecretRecord } from './secret-ledger.js';
import { secretDigest, secretPlaceholder } from './secret-ledger.js';

/** An extra detector for secrets the built-in ones do not know, e.g. an internal token format. */
export interface SecretPattern {
  /**
   * The kind reported in events and shown in placeholders (`[secret:<name>#1]`): lower-case
   * letters, digits and `-`, starting with a letter, e.g. `"acme-token"`.
   */
  readonly name: string;
  /**
   * What to find. When it has a named group `secret`, only that group is redacted (so
   * `/acme_id=(?<secret>\w+)/` keeps `acme_id=` readable); otherwise the whole match is.
   */
  readonly pattern: RegExp;
}

/** How secrets are redacted: the `redact` option of `ContextManager`, and the options of {@link redactSecrets}. */
export interface RedactionOptions {
  /** Extra detectors, run before the built-in ones (they win where they overlap). @default [] */
  patterns?: readonly SecretPattern[] | undefined;
  /**
   * Values never redacted: a string is compared with the whole detected secret, a RegExp is
   * tested against it. Use it for known test fixtures or public ids that look random. @default []
   */
  allow?: readonly (string | RegExp)[] | undefined;
  /**
   * Shannon entropy, in bits per character, at or above which a random-looking token of 20+
   * characters that no other detector knows is redacted as `high-entropy`; `false` turns that
   * detector off. Lower finds more and mangles more. @default 3.5
   */
  entropy?: number | false | undefined;
}

/** One kind of secret redacted in one field of one recorded input, as reported by the `secret-redact` event. */
export interface SecretRedaction {
  /** The kind of secret, e.g. `"aws-key"` (see `SECRET_KINDS`) or an extra pattern's `name`. */
  readonly kind: string;
  /** Where it was, e.g. `"content"`, `"output"`, `"toolCalls[0].input.command"`, `"facts[2].value"`. */
  readonly field: string;
  /** How many occurrences were replaced. */
  readonly count: number;
  /** The placeholders that replaced them, each once (never the secrets). */
  readonly placeholders: readonly string[];
}

/** A secret replaced by {@link redactSecrets}: what replaced it and where it was in the input. */
export interface RedactedSecret {
  /** The kind of secret. */
  readonly kind: string;
  /** The placeholder that replaced it, e.g. `[secret:aws-key#1]`. */
  readonly placeholder: string;
  /** Offset of the secret in the input text. */
  readonly start: number;
  /** Offset just past the secret in the input text. */
  readonly end: number;
}

/** Default entropy threshold of the `high-entropy` detector, in bits per character (public as `DEFAULTS.redact.entropy`). @internal */
export const DEFAULT_ENTROPY_THRESHOLD = 3.5;

/**
 * Finds the secrets in `text` with the built-in detectors (and any extra `patterns`), after
 * settling overlaps and applying the allowlist. Does not change anything.
 *
 * @example
 * ```ts
 * findSecrets('export GITHUB_TOKEN=ghp_…'); // [{ kind: 'github-token', start: 20, end: 60 }]
 * ```
 * @throws {InvalidArgumentError} when an option is invalid.
 */
export function findSecrets(text: string, options: RedactionOptions = {}): readonly SecretFinding[] {
  const parsed = parse(findSchema, { text, options }, 'findSecrets', "findSecrets(text, { allow: ['AKIAIOSFODNN7EXAMPLE'] })");
  return findWith(resolveRedaction(parsed.options as RedactionOptions), parsed.text);
}

/**
 * Replaces each secret in `text` with a placeholder such as `[secret:aws-key#1]`; the same
 * secret gets the same placeholder within the call. `ContextManager` does this to everything it
 * records (with placeholders stable for the whole session); use this for text you log or send
 * elsewhere.
 *
 * @example
 * ```ts
 * redactSecrets('DATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app').text;
 * // 'DATABASE_URL=postgres://app:[secret:url-password#1]@db:5432/app'
 * ```
 * @throws {InvalidArgumentError} when an option is invalid.
 */
export function redactSecrets(text: string, options: RedactionOptions = {}): { readonly text: string; readonly secrets: readonly RedactedSecret[] } {
  const parsed = parse(findSchema, { text, options }, 'redactSecrets', "redactSecrets(text, { entropy: false })");
  const findings = findWith(resolveRedaction(parsed.options as RedactionOptions), parsed.text);
  const numbers = new Map<string, string>();
  const counters = new Map<string, number>();
  const secrets = findings.map((finding) => {
    const secret = parsed.text.slice(finding.start, finding.end);
    let placeholder = numbers.get(secret);
    if (placeholder === undefined) {
      const number = (counters.get(finding.kind) ?? 0) + 1;
      counters.set(finding.kind, number);
      placeholder = secretPlaceholder(finding.kind, number);
      numbers.set(secret, placeholder);
    }
    return { kind: finding.kind, placeholder, start: finding.start, end: finding.end };
  });
  return { text: replaceSpans(parsed.text, secrets), secrets };
}

/** Redaction options after validation: the detectors to run, in order, and the allowlist. @internal */
export interface ResolvedRedaction {
  readonly detectors: readonly Detector[];
  readonly allow: readonly (string | RegExp)[];
}

/** The zod schema of {@link RedactionOptions}. @internal */
export const redactionOptionsSchema: z.ZodType<unknown> = z.strictObject({
  patterns: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'use lower-case letters, digits and "-", starting with a letter (it is shown in placeholders)'),
        pattern: z.custom<RegExp>(isRegExp, 'expected a RegExp, e.g. /acme_[A-Za-z0-9]{32}/'),
      }),
    )
    .max(200)
    .optional(),
  allow: z.array(z.union([z.string().min(1), z.custom<RegExp>(isRegExp, 'expected a string or a RegExp')])).optional(),
  entropy: z.union([z.number().min(1).max(8), z.literal(false)]).optional(),
});

/** Builds the detector list of validated options: extra patterns first, then the built-in ones. @internal */
export function resolveRedaction(options: RedactionOptions): ResolvedRedaction {
  const extra = (options.patterns ?? []).map((pattern) => patternDetector({ kind: pattern.name, pattern: pattern.pattern }));
  return {
    detectors: [...extra, ...builtInDetectors({ entropy: options.entropy ?? DEFAULT_ENTROPY_THRESHOLD })],
    // Copies without `g`/`y`: a stateful RegExp would skip matches after its first `test()`.
    allow: (options.allow ?? []).map((entry) => (typeof entry === 'string' ? entry : compiledPattern(entry.source, entry.flags.replace(/[gy]/g, '')))),
  };
}

/**
 * Redacts the text fields of one recorded input against a session's ledger: known secrets get
 * their placeholder, new ones the next number of their kind. Nothing is added to the ledger: the
 * caller records `records` with the event, so the ledger changes only if the event is committed.
 * @internal
 */
export interface RedactionScope {
  /** Redacts `value`; `field` says where it came from, for the `secret-redact` event. */
  text(value: string, field: string): string;
  /**
   * Redacts `next`, the new content of a file whose content was `previous` (already redacted),
   * scanning only the changed lines and their surroundings (see `rescanRegions`): the result
   * equals `text(next, field)`, at a cost that follows the size of the change.
   */
  update(options: { previous: string; next: string; field: string; lookaheadLines?: number | undefined }): string;
  /** Redacts every string inside a JSON value, and whole string values under secret-named keys. */
  json(value: JsonValue, field: string): JsonValue;
  /** Ledger records of the secrets first seen in this scope. */
  readonly records: readonly SecretRecord[];
  /** What was redacted where, for the `secret-redact` event. */
  readonly redactions: readonly SecretRedaction[];
}

/** Opens a {@link RedactionScope}; with `config: false` it returns every value unchanged. @internal */
export function createRedactionScope(options: { config: ResolvedRedaction | false; ledger: Pick<SecretLedger, 'placeholderOf' | 'nextNumber'> }): RedactionScope {
  const { config, ledger } = options;
  // One shared scope that changes nothing: a scope is opened for every recorded input.
  if (config === false) return NO_REDACTION_SCOPE;
  return new LedgerScope(config, ledger);
}

// --- Internal helpers ---

const findSchema = z.strictObject({ text: z.string(), options: redactionOptionsSchema });

/** Where a value is in a recorded input: a field name, or a key or index under another path. */
type FieldPath = string | { readonly parent: FieldPath; readonly key: string | number };

// `toolCalls[0].input.command`, with keys that are not identifiers quoted.
function fieldText(path: FieldPath): string {
  if (typeof path === 'string') return path;
  const parent = fieldText(path.parent);
  const { key } = path;
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** Texts in which a configuration found no secret, so that a text recorded again is not scanned again. */
interface CleanTexts {
  has(text: string): boolean;
  add(text: string): void;
}

/** Characters of clean texts remembered per configuration; the oldest are forgotten first. */
const CLEAN_TEXT_CHARS = 4_194_304;
/** Longest text remembered (longer ones are scanned each time). */
const MAX_CLEAN_TEXT = 1_048_576;
/** Shortest text remembered: a shorter one costs less to scan than to look up. */
const MIN_CLEAN_TEXT = 64;
const NO_CANDIDATES: readonly Candidate[] = [];
const NO_REDACTIONS: readonly SecretRedaction[] = Object.freeze([]);
const NO_RECORDS: readonly SecretRecord[] = Object.freeze([]);
const NO_REDACTION_SCOPE: RedactionScope = Object.freeze({
  text: (value: string) => value,
  update: (options: { next: string }) => options.next,
  json: (value: JsonValue) => value,
  records: NO_RECORDS,
  redactions: NO_REDACTIONS,
});
const NO_FINDINGS: readonly SecretFinding[] = Object.freeze([]);

/** What scanning with one configuration keeps: texts found clean, and the scan of its detectors' triggers. */
interface ScanState {
  readonly cleanTexts: CleanTexts;
  readonly triggers: TriggerScan;
}

// A scope is opened for every recorded input and most find nothing: one object with no closures,
// and what only a finding needs is made at the first finding.
class LedgerScope implements RedactionScope {
  readonly #config: ResolvedRedaction;
  readonly #ledger: Pick<SecretLedger, 'placeholderOf' | 'nextNumber'>;
  readonly #state: ScanState;
  #records: SecretRecord[] | undefined;
  #pending: Map<string, string> | undefined;
  #pendingNext: Map<string, number> | undefined;
  #reports: Map<string, { kind: string; field: string; count: number; placeholders: string[] }> | undefined;

  constructor(config: ResolvedRedaction, ledger: Pick<SecretLedger, 'placeholderOf' | 'nextNumber'>) {
    this.#config = config;
    this.#ledger = ledger;
    this.#state = scanStateOf(config);
  }

  get records(): readonly SecretRecord[] {
    return this.#records ?? NO_RECORDS;
  }

  get redactions(): readonly SecretRedaction[] {
    const reports = this.#reports;
    if (reports === undefined || reports.size === 0) return NO_REDACTIONS;
    return [...reports.values()].map((report) => Object.freeze({ ...report, placeholders: Object.freeze([...report.placeholders]) }));
  }

  text(value: string, field: string): string {
    return this.#redact(value, field, false);
  }

  json(value: JsonValue, field: string): JsonValue {
    return this.#walk(value, field);
  }

  update(options: { previous: string; next: string; field: string; lookaheadLines?: number | undefined }): string {
    const { next, field } = options;
    let result = '';
    let position = 0;
    let isChanged = false;
    for (const region of rescanRegions(options)) {
      const original = next.slice(region.start, region.end);
      const redacted = this.#redact(original, field, false);
      isChanged ||= redacted !== original;
      result += next.slice(position, region.start) + redacted;
      position = region.end;
    }
    // Without a secret the caller's own (flat) string is kept: a rebuilt copy would be a rope of
    // slices that every later pass over a large file has to flatten first.
    return isChanged ? result + next.slice(position) : next;
  }

  #placeholderFor(kind: string, secret: string): string {
    const digest = secretDigest(secret);
    const known = this.#ledger.placeholderOf(digest) ?? this.#pending?.get(digest);
    if (known !== undefined) return known;
    const number = Math.max(this.#ledger.nextNumber(kind), this.#pendingNext?.get(kind) ?? 1);
    (this.#pendingNext ??= new Map()).set(kind, number + 1);
    const placeholder = secretPlaceholder(kind, number);
    (this.#pending ??= new Map()).set(digest, placeholder);
    (this.#records ??= []).push({ digest, kind, number });
    return placeholder;
  }

  #redact(value: string, fieldPath: FieldPath, isWholeCredential: boolean): string {
    if (value.length === 0) return value;
    const config = this.#config;
    const { cleanTexts, triggers } = this.#state;
    if (!isWholeCredential && cleanTexts.has(value)) return value;
    const extra = isWholeCredential ? [{ kind: 'credential', start: 0, end: value.length, rank: config.detectors.findIndex((detector) => detector.kind === 'credential') }] : NO_CANDIDATES;
    const findings = findWith(config, value, extra, triggers);
    if (findings.length === 0) {
      if (!isWholeCredential) cleanTexts.add(value);
      return value;
    }
    const field = fieldText(fieldPath);
    const fieldReports = (this.#reports ??= new Map());
    const replaced = findings.map((finding) => {
      const placeholder = this.#placeholderFor(finding.kind, value.slice(finding.start, finding.end));
      const key = `${field}\u0000${finding.kind}`;
      const report = fieldReports.get(key) ?? { kind: finding.kind, field, count: 0, placeholders: [] };
      report.count += 1;
      if (!report.placeholders.includes(placeholder)) report.placeholders.push(placeholder);
      fieldReports.set(key, report);
      return { ...finding, placeholder };
    });
    return replaceSpans(value, replaced);
  }

  // Paths are put into words only for a field with a finding: most inputs have none.
  #walk(value: JsonValue, field: FieldPath): JsonValue {
    if (typeof value === 'string') return this.#redact(value, field, false);
    if (Array.isArray(value)) return value.map((item, index) => this.#walk(item as JsonValue, { parent: field, key: index }));
    if (typeof value === 'object' && value !== null) {
      const result: Record<string, JsonValue> = {};
      for (const [key, item] of Object.entries(value as Record<string, JsonValue>)) {
        const path = { parent: field, key };
        result[key] =
          typeof item === 'string' && isCredential({ name: key, value: item, isQuoted: true, isBareWordSecret: true })
            ? this.#redact(item, path, true)
            : this.#walk(item, path);
      }
      return result;
    }
    return value;
  }
}

// Per resolved configuration (one per manager): the same detectors and allowlist give the same
// findings for the same text. Only texts without a finding are kept, so no secret stays here.
const scanStates = new WeakMap<ResolvedRedaction, ScanState>();

function scanStateOf(config: ResolvedRedaction): ScanState {
  let state = scanStates.get(config);
  if (state === undefined) {
    state = { cleanTexts: createCleanTexts(), triggers: createTriggerScan(config.detectors) };
    scanStates.set(config, state);
  }
  return state;
}

function createCleanTexts(): CleanTexts {
  const texts = new Set<string>();
  let chars = 0;
  return {
    has: (text) => text.length >= MIN_CLEAN_TEXT && texts.has(text),
    add(text) {
      if (text.length < MIN_CLEAN_TEXT || text.length > MAX_CLEAN_TEXT || texts.has(text)) return;
      // A copy, so that a remembered slice does not keep the whole text it was cut from alive
      // (the token-count cache takes the same copy when it counts this text next).
      const key = detachedCopy(text);
      texts.add(key);
      chars += key.length;
      while (chars > CLEAN_TEXT_CHARS) {
        const oldest = texts.values().next();
        if (oldest.done === true) break;
        texts.delete(oldest.value);
        chars -= oldest.value.length;
      }
    },
  };
}
const PLACEHOLDER = /\[secret:[a-z0-9-]+#\d+\]/g;

function isRegExp(value: unknown): value is RegExp {
  return Object.prototype.toString.call(value) === '[object RegExp]';
}

interface Candidate {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
  readonly rank: number;
}

// Earlier detectors win overlaps; text already redacted (a placeholder) is never touched again.
function findWith(config: ResolvedRedaction, text: string, extra: readonly Candidate[] = NO_CANDIDATES, triggers: TriggerScan = scanStateOf(config).triggers): readonly SecretFinding[] {
  const { detectors } = config;
  const { bits, untriggered } = triggers;
  // A detector runs only when one of its trigger words occurs (one search for the words of all
  // of them) and, for detectors of long tokens, when the text has a run of token characters that
  // long (one scan, shared with the entropy detector). Most texts run none, and hold no trigger
  // word: then only the detectors without triggers are looked at.
  const triggered = triggers.scan(text);
  const looked = triggered === 0 ? untriggered.length : detectors.length;
  let longestRun: number | undefined;
  let candidates: Candidate[] | undefined;
  for (let index = 0; index < looked; index += 1) {
    const rank = triggered === 0 ? (untriggered[index] as number) : index;
    const detector = detectors[rank] as Detector;
    const bit = bits[rank] ?? -1;
    if (bit >= 0 && (triggered & (1 << bit)) === 0) continue;
    const { minRun } = detector;
    if (minRun !== undefined && minRun > (longestRun ??= longTokenRuns(text).longest)) continue;
    const spans = detector.find(text);
    // Most detectors that run find nothing and return an empty array: no iterator for those.
    if (Array.isArray(spans) && spans.length === 0) continue;
    for (const [start, end] of spans) (candidates ??= [...extra]).push({ kind: detector.kind, start, end, rank });
  }
  if (candidates === undefined) {
    if (extra.length === 0) return NO_FINDINGS;
    candidates = [...extra];
  }
  const taken: { start: number; end: number; kind: string | undefined }[] = [];
  if (text.includes('[secret:')) for (const match of text.matchAll(PLACEHOLDER)) taken.push({ start: match.index, end: match.index + match[0].length, kind: undefined });
  candidates.sort((left, right) => left.rank - right.rank || left.start - right.start || right.end - left.end);
  taken.sort((left, right) => left.start - right.start);
  for (const candidate of candidates) {
    if (overlaps(taken, candidate) || isAllowed(config.allow, text.slice(candidate.start, candidate.end))) continue;
    insertSorted(taken, { start: candidate.start, end: candidate.end, kind: candidate.kind });
  }
  return taken.flatMap((span) => (span.kind === undefined ? [] : [{ kind: span.kind, start: span.start, end: span.end }]));
}

function isAllowed(allow: readonly (string | RegExp)[], secret: string): boolean {
  return allow.some((entry) => (typeof entry === 'string' ? entry === secret : entry.test(secret)));
}

// `spans` is sorted by start and its spans do not overlap, so only the neighbours need a look.
function overlaps(spans: readonly { start: number; end: number }[], candidate: { start: number; end: number }): boolean {
  const index = firstStartingAtOrAfter(spans, candidate.start);
  const next = spans[index];
  const previous = spans[index - 1];
  return (next !== undefined && next.start < candidate.end) || (previous !== undefined && previous.end > candidate.start);
}

function insertSorted<T extends { start: number }>(spans: T[], span: T): void {
  spans.splice(firstStartingAtOrAfter(spans, span.start), 0, span);
}

function firstStartingAtOrAfter(spans: readonly { start: number }[], start: number): number {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((spans[middle] as { start: number }).start < start) low = middle + 1;
    else high = middle;
  }
  return low;
}

function replaceSpans(text: string, spans: readonly { start: number; end: number; placeholder: string }[]): string {
  let result = '';
  let position = 0;
  for (const span of spans) {
    result += text.slice(position, span.start) + span.placeholder;
    position = span.end;
  }
  return result + text.slice(position);
}
