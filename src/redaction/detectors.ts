import { compiledPattern } from './compiled-patterns.js';
import { MIN_ENTROPY_TOKEN_LENGTH, isRandomLooking } from './entropy.js';

/**
 * Kinds of secret the built-in detectors find. The kind is also the name in the placeholder that
 * replaces a secret, e.g. `[secret:aws-key#1]`.
 */
export type SecretKind =
  | 'private-key'
  | 'jwt'
  | 'aws-key'
  | 'aws-secret'
  | 'github-token'
  | 'github-pat'
  | 'gitlab-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'openai-key'
  | 'anthropic-key'
  | 'stripe-key'
  | 'google-api-key'
  | 'npm-token'
  | 'url-password'
  | 'auth-header'
  | 'credential'
  | 'high-entropy';

/** Every built-in {@link SecretKind}, most specific first (the order in which overlaps are settled). */
export const SECRET_KINDS: readonly SecretKind[] = Object.freeze([
  'private-key',
  'jwt',
  'aws-key',
  'aws-secret',
  'github-token',
  'github-pat',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'openai-key',
  'anthropic-key',
  'stripe-key',
  'google-api-key',
  'npm-token',
  'url-password',
  'auth-header',
  'credential',
  'high-entropy',
] as const);

/** A secret found in a text: its kind and where it is (`text.slice(start, end)` is the secret). */
export interface SecretFinding {
  /** A {@link SecretKind}, or the `name` of an extra pattern. */
  readonly kind: string;
  /** Offset of the first character of the secret. */
  readonly start: number;
  /** Offset just past the secret. */
  readonly end: number;
}

/**
 * Finds secrets in text. `find` yields the `[start, end)` spans of candidate secrets; the
 * redactor settles overlaps (earlier detectors win) and applies the allowlist. @internal
 */
export interface Detector {
  /** The kind reported and used in placeholders. */
  readonly kind: string;
  /** Yields the spans of candidate secrets in `text`. */
  find(text: string): Iterable<readonly [start: number, end: number]>;
  /**
   * When set (at least {@link MIN_ENTROPY_TOKEN_LENGTH}): every span this detector can find starts
   * in a run of at least this many token characters (`[A-Za-z0-9+/_-]`), so a text whose longest
   * such run is shorter is skipped without calling `find` (see {@link longTokenRuns}).
   */
  readonly minRun?: number | undefined;
  /**
   * When set: ASCII words, compared without regard to case, one of which every text holding a
   * span of this detector contains, so that a text with none of them is skipped without calling
   * `find`. One search for the words of every detector (see {@link createTriggerScan}) replaces a
   * search per detector.
   */
  readonly triggers?: readonly string[] | undefined;
}

/**
 * Tells which detectors of a list may find something in a text, judged by their triggers: one
 * search with a RegExp of every trigger word. Returns the detectors' trigger bits (see
 * {@link TriggerScan}). @internal
 */
export interface TriggerScan {
  /** Per detector (by index): its bit in the mask {@link TriggerScan.scan} returns, or -1 when it has no triggers (it always runs). */
  readonly bits: readonly number[];
  /** The indexes of the detectors without a bit, in order: all that can run on a text with no trigger. */
  readonly untriggered: readonly number[];
  /** The mask of the detectors one of whose triggers occurs in `text`. */
  scan(text: string): number;
}

/**
 * Builds the {@link TriggerScan} of a list of detectors. The RegExp tries the longer words first
 * and every search resumes one character after the last match, so it stops at every position
 * where a word starts, with the longest word there; every other word starting there is a prefix
 * of that one, and a match marks the detectors of the word and of its prefixes. After
 * {@link MAX_TRIGGER_MATCHES} matches every detector with triggers is marked. @internal
 */
export function createTriggerScan(detectors: readonly Detector[]): TriggerScan {
  const bits: number[] = [];
  const wordBits = new Map<string, number>();
  let nextBit = 0;
  for (const detector of detectors) {
    const triggers = detector.triggers ?? [];
    // A mask holds 31 bits; a detector beyond them runs on every text, as one without triggers.
    const bit = triggers.length > 0 && nextBit < MAX_TRIGGER_BITS ? nextBit++ : -1;
    bits.push(bit);
    if (bit === -1) continue;
    for (const trigger of triggers) {
      const word = trigger.toLowerCase();
      wordBits.set(word, (wordBits.get(word) ?? 0) | (1 << bit));
    }
  }
  const untriggered = bits.flatMap((bit, index) => (bit === -1 ? [index] : []));
  if (wordBits.size === 0) return { bits, untriggered, scan: NO_WORDS_SCAN };
  // Every manager resolves its own detectors, nearly always with the same words.
  const signature = [...wordBits].map(([word, mask]) => `${word}\u0000${mask}`).join('\u0001');
  let scan = scansBySignature.get(signature);
  if (scan === undefined) {
    if (scansBySignature.size >= MAX_PATTERNS_REMEMBERED) scansBySignature.clear();
    scan = createWordScan(wordBits);
    scansBySignature.set(signature, scan);
  }
  return { bits, untriggered, scan };
}

/** Runs of token characters (`[A-Za-z0-9+/_-]`) of a text, as found by {@link longTokenRuns}. @internal */
export interface LongTokenRuns {
  /** `[start, end)` of every maximal run of at least {@link MIN_ENTROPY_TOKEN_LENGTH} characters, in order, flat: start, end, start, end… */
  readonly bounds: readonly number[];
  /** Length of the longest of them; 0 when there is none. */
  readonly longest: number;
}

/**
 * Finds the maximal runs of token characters (`[A-Za-z0-9+/_-]`) of at least
 * {@link MIN_ENTROPY_TOKEN_LENGTH} characters: the same runs as
 * `/[A-Za-z0-9+/_-]{20,}/g`, in one pass that looks at one character in every 20 outside them (a
 * run that long always covers one of those). Remembers its last text, so that the detectors that
 * ask about one text scan it once.
 * @internal
 */
export function longTokenRuns(text: string): LongTokenRuns {
  if (text === lastRunsText) return lastRuns;
  const bounds: number[] = [];
  let longest = 0;
  const length = text.length;
  for (let sample = MIN_ENTROPY_TOKEN_LENGTH - 1; sample < length; ) {
    if (!isRunCharacter(text.charCodeAt(sample))) {
      sample += MIN_ENTROPY_TOKEN_LENGTH;
      continue;
    }
    let start = sample;
    while (start > 0 && isRunCharacter(text.charCodeAt(start - 1))) start -= 1;
    let end = sample + 1;
    while (end < length && isRunCharacter(text.charCodeAt(end))) end += 1;
    if (end - start >= MIN_ENTROPY_TOKEN_LENGTH) {
      bounds.push(start, end);
      if (end - start > longest) longest = end - start;
    }
    // The next run starts after `end`: its first MIN_ENTROPY_TOKEN_LENGTH characters cover this sample.
    sample = end + MIN_ENTROPY_TOKEN_LENGTH;
  }
  lastRunsText = text;
  lastRuns = { bounds, longest };
  return lastRuns;
}

/**
 * Turns a regular expression into a {@link Detector}. The secret is the named group `secret`
 * when the expression has one and it matched, else the whole match. @internal
 */
export function patternDetector(options: {
  kind: string;
  pattern: RegExp;
  accept?: ((secret: string, match: RegExpExecArray) => boolean) | undefined;
  /** A substring every match contains; texts without it are skipped without running the RegExp. */
  requires?: string | undefined;
  /**
   * Substrings one of which every match contains; texts with none of them are skipped without
   * running the RegExp (a few native searches instead of a RegExp pass). @default undefined
   */
  requiresAny?: readonly string[] | undefined;
  /**
   * A cheap RegExp that finds something every accepted match contains (e.g. a word its `accept`
   * insists on); texts where it finds nothing are skipped. @default undefined
   */
  prefilter?: RegExp | undefined;
  /**
   * The `[start, end)` of the lines of a text that can hold a match (see {@link createLineFinder});
   * a text without one is skipped, and with `isLineLocal` only these lines are scanned. Detectors
   * that share one finder search a text for their lines once. @default undefined
   */
  candidateLines?: ((text: string) => readonly (readonly [number, number])[]) | undefined;
  /**
   * Whether no match can cross a line break (and the pattern has no `^`/`$`, or has the `m` flag,
   * and its look-arounds treat a line break like the start or end of the text): then only the
   * lines holding `requires` (or a `prefilter` match) are scanned, so a large text with one URL
   * costs one search for `requires`. @default false
   */
  isLineLocal?: boolean | undefined;
  /** See {@link Detector.minRun}. @default undefined */
  minRun?: number | undefined;
  /** See {@link Detector.triggers}. @default `[requires]`, or `requiresAny` */
  triggers?: readonly string[] | undefined;
}): Detector {
  const flags = new Set(options.pattern.flags.split(''));
  flags.add('g');
  flags.add('d');
  flags.delete('y');
  const source = options.pattern.source;
  const compiledFlags = [...flags].join('');
  // Every span of `text` (at `offset` in the text searched), collected before returning: the
  // RegExp is shared by the process (see compiledPattern), so no search may stay open.
  let shared: RegExp | undefined;
  const findIn = (text: string, offset: number, spans: (readonly [number, number])[]): void => {
    const pattern = (shared ??= compiledPattern(source, compiledFlags));
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) pattern.lastIndex += 1;
      const span = match.indices?.groups?.['secret'] ?? match.indices?.[0];
      if (span === undefined || span[1] <= span[0]) continue;
      const secret = text.slice(span[0], span[1]);
      if (options.accept !== undefined && !options.accept(secret, match)) continue;
      spans.push([offset + span[0], offset + span[1]] as const);
    }
  };
  const { requires, requiresAny, candidateLines } = options;
  // Without `g` or `y` a RegExp keeps no state between texts.
  const prefilter = options.prefilter === undefined ? undefined : compiledPattern(options.prefilter.source, options.prefilter.flags.replace(/[gy]/g, ''));
  const lineHits = prefilter === undefined ? undefined : compiledPattern(prefilter.source, `${prefilter.flags}g`);
  // The next hit of `requires` (or of the prefilter) at or after `from`, or -1.
  const nextHit = (text: string, from: number): number => {
    if (requires !== undefined) return text.indexOf(requires, from);
    const hits = lineHits as RegExp;
    hits.lastIndex = from;
    return hits.exec(text)?.index ?? -1;
  };
  const findLines = (text: string): (readonly [number, number])[] => {
    const spans: (readonly [number, number])[] = [];
    for (let hit = nextHit(text, 0); hit !== -1; ) {
      const lineStart = text.lastIndexOf('\n', hit) + 1;
      const lineBreak = text.indexOf('\n', hit);
      const lineEnd = lineBreak === -1 ? text.length : lineBreak;
      findIn(text.slice(lineStart, lineEnd), lineStart, spans);
      hit = lineBreak === -1 ? -1 : nextHit(text, lineBreak);
    }
    return spans;
  };
  const findInLines = (text: string, lines: readonly (readonly [number, number])[]): (readonly [number, number])[] => {
    const spans: (readonly [number, number])[] = [];
    for (const [start, end] of lines) findIn(text.slice(start, end), start, spans);
    return spans;
  };
  const findAll = (text: string): (readonly [number, number])[] => {
    const spans: (readonly [number, number])[] = [];
    findIn(text, 0, spans);
    return spans;
  };
  return {
    kind: options.kind,
    minRun: options.minRun,
    triggers: options.triggers ?? (requires !== undefined ? [requires] : requiresAny),
    // Most texts hold no candidate, and then nothing is created.
    find(text) {
      if (candidateLines !== undefined) {
        const lines = candidateLines(text);
        if (lines.length === 0) return NO_SPANS;
        if (options.isLineLocal === true) return findInLines(text, lines);
      }
      if (requires !== undefined && !text.includes(requires)) return NO_SPANS;
      if (requiresAny !== undefined && !includesAny(text, requiresAny)) return NO_SPANS;
      if (prefilter !== undefined && !prefilter.test(text)) return NO_SPANS;
      const isByLine = options.isLineLocal === true && (requires !== undefined || prefilter !== undefined);
      return isByLine ? findLines(text) : findAll(text);
    },
  };
}

/**
 * Returns a function that gives the `[start, end)` of the lines (cut at `\n`) of a text where
 * `pattern` matches, in order. It remembers its last text, so that the detectors that share it
 * search each text once. @internal
 */
export function createLineFinder(pattern: RegExp): (text: string) => readonly (readonly [number, number])[] {
  const hits = compiledPattern(pattern.source, `${pattern.flags.replace(/[gy]/g, '')}g`);
  let lastText: string | undefined;
  let lastLines: readonly (readonly [number, number])[] = NO_SPANS;
  return (text) => {
    if (text === lastText) return lastLines;
    const lines: (readonly [number, number])[] = [];
    hits.lastIndex = 0;
    for (let hit = hits.exec(text); hit !== null; hit = hits.exec(text)) {
      const lineStart = text.lastIndexOf('\n', hit.index) + 1;
      const lineBreak = text.indexOf('\n', hit.index);
      const lineEnd = lineBreak === -1 ? text.length : lineBreak;
      lines.push([lineStart, lineEnd]);
      if (lineBreak === -1) break;
      hits.lastIndex = lineBreak;
    }
    lastText = text;
    lastLines = lines;
    return lines;
  };
}

/**
 * Tells whether a variable, key or flag name usually holds a secret: `'strong'` for names that
 * say so (`DB_PASSWORD`, `apiKey`, `client_secret`, `GITHUB_TOKEN`), `'weak'` for upper-case
 * names ending in `_KEY` (often a secret in `.env` files, sometimes a cache or sort key), else
 * `false`. @internal
 */
export function secretNameStrength(name: string): 'strong' | 'weak' | false {
  // Every name accepted below holds one of these words: most names are ruled out by one search.
  if (!SECRET_NAME_WORD.test(name)) return false;
  const bare = name.replace(/^[-_.]+/, '');
  if (NOT_SECRET_NAME.test(bare)) return false;
  if (SECRET_NAME.test(bare) || /^[A-Z][A-Z0-9_]*_(?:PASS|PWD)$/.test(bare)) return 'strong';
  return /^[A-Z][A-Z0-9_]*_KEY$/.test(bare) ? 'weak' : false;
}

/**
 * Tells whether a value assigned to a secret-named variable is a literal secret rather than a
 * reference (`$VAR`, `${VAR}`, `process.env.X`), a placeholder (`<token>`, `changeme`, `***`),
 * a type annotation (`string`), a path or a number. @internal
 */
export function isLiteralSecret(value: string, options: { name: string; isQuoted: boolean; isBareWordSecret?: boolean | undefined }): boolean {
  if (value.length < 4 || value.length > 1_000 || /\s/.test(value)) return false;
  if (/^(?:\$|%[\w({]|\{\{|<|\[secret:|\*|#\{)/.test(value) || /\.\.\.|…|xxxx|XXXX/.test(value)) return false;
  if (/^(.)\1*$/.test(value) || /^\d+(?:\.\d+)?$/.test(value)) return false;
  if (PLACEHOLDER_WORD.test(value) || /^(?:your|my|enter|insert|put|replace)[-_]/i.test(value)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(value)) return false;
  // The name repeated as its own value: a label or a field mapping (`"password": "Password"`).
  const normalize = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const bareValue = normalize(value);
  if (bareValue.length > 0 && normalize(options.name).endsWith(bareValue)) return false;
  // A constant's name or a dotted reference (`settings.SECRET_KEY`, `config.db.password`).
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) && !/\d/.test(value)) return false;
  if (!options.isQuoted && /[()[\]{}<>;,|]/.test(value)) return false;
  // Outside `.env` lines a bare word is far more often a type, a reference or prose than a secret.
  if (options.isBareWordSecret !== true && /^[A-Za-z_]+$/.test(value)) return false;
  return true;
}

/**
 * Tells whether `value`, assigned to `name`, is a secret to redact: the name says it holds one and
 * the value is a literal rather than a reference or placeholder; a weak name (`CACHE_KEY`) also
 * needs a value of 8+ characters with a digit or mixed case. @internal
 */
export function isCredential(options: { name: string; value: string; isQuoted: boolean; isBareWordSecret?: boolean | undefined }): boolean {
  const strength = secretNameStrength(options.name);
  if (strength === false || !isLiteralSecret(options.value, options)) return false;
  const value = options.value;
  return strength === 'strong' || (value.length >= 8 && (/[0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value))));
}

/**
 * Creates the built-in detectors, most specific first; the entropy detector is left out when
 * `entropy` is `false`. @internal
 */
export function builtInDetectors(options: { entropy: number | false }): Detector[] {
  const detectors: Detector[] = [
    { kind: 'private-key', find: findPrivateKeys, triggers: ['PRIVATE KEY'] },
    patternDetector({ kind: 'jwt', requires: 'eyJ', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g }),
    patternDetector({ kind: 'aws-key', minRun: 20, prefilter: AWS_KEY_PREFIX, triggers: AWS_KEY_PREFIXES, pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Za-z0-9])/g }),
    patternDetector({
      kind: 'aws-secret',
      // The secret is 40 characters of [A-Za-z0-9/+], all token characters: a run of 40 or more.
      minRun: 40,
      prefilter: /secret/i,
      triggers: ['secret'],
      pattern: /(?:aws_?)?secret_?(?:access_?)?key(?:_id)?["']?\s*(?:=|:|=>)\s*["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    }),
    patternDetector({ kind: 'github-token', minRun: 40, prefilter: /gh[pousr]_/, triggers: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g }),
    patternDetector({ kind: 'github-pat', minRun: 51, requires: 'github_pat_', pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{40,251}(?![A-Za-z0-9_])/g }),
    patternDetector({ kind: 'gitlab-token', minRun: 26, requires: 'glpat-', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g }),
    patternDetector({ kind: 'slack-token', requiresAny: ['xox', 'xapp-'], pattern: /(?<![A-Za-z0-9_-])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}(?![A-Za-z0-9_-])/g, accept: hasDigit }),
    patternDetector({ kind: 'slack-webhook', minRun: 20, requires: 'hooks.slack.com/', pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9_/-]{20,})/g }),
    patternDetector({ kind: 'anthropic-key', minRun: 27, requires: 'sk-ant-', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g }),
    patternDetector({
      kind: 'openai-key',
      minRun: 23,
      requires: 'sk-',
      pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
      accept: (secret) => /[0-9]/.test(secret) && /[A-Z]/.test(secret) && /[a-z]/.test(secret.slice(3)),
    }),
    patternDetector({ kind: 'stripe-key', minRun: 24, prefilter: /[sr]k_(?:live|test)_|whsec_/, triggers: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'], pattern: /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})(?![A-Za-z0-9_])/g }),
    patternDetector({ kind: 'google-api-key', minRun: 39, requires: 'AIza', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g }),
    patternDetector({ kind: 'npm-token', minRun: 40, requires: 'npm_', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g }),
    patternDetector({
      kind: 'url-password',
      requires: '://',
      isLineLocal: true,
      pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:@/?#'"<>`]*:(?<secret>[^\s@/'"<>`]+)@(?=[A-Za-z0-9[])/g,
      accept: (secret) => !/^(?:\$|\{\{|<|\[secret:|\*+$|x+$|%s$|\.\.\.$|…$)/i.test(secret),
    }),
    patternDetector({
      kind: 'auth-header',
      prefilter: /authorization|bearer|api-key|auth-token|access-token/i,
      triggers: ['authorization', 'bearer', 'api-key', 'auth-token', 'access-token'],
      pattern: /(?:\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|bot|apikey)\s+)?|\bbearer\s+|\b(?:x-)?(?:api-key|auth-token|access-token)["']?\s*:\s*["']?)(?<secret>[A-Za-z0-9._~+/][A-Za-z0-9._~+/-]{7,}=*)/gi,
      accept: (secret) => isLiteralSecret(secret, { name: 'authorization', isQuoted: true }) && (/[0-9]/.test(secret) || /[A-Z]/.test(secret)),
    }),
    ...credentialDetectors(),
  ];
  if (options.entropy !== false) detectors.push(entropyDetector(options.entropy));
  return detectors;
}

// --- Internal helpers ---

// Prefixes that key patterns require, as one RegExp: one native pass finds any of them, where a
// search per prefix passes over the text once for each.
const AWS_KEY_PREFIXES = ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'APKA'];
const AWS_KEY_PREFIX = new RegExp(AWS_KEY_PREFIXES.join('|'));
const NO_SPANS: readonly (readonly [number, number])[] = [];
/** Tokens of at most this length are remembered by the entropy detector when not random. */
const MAX_REMEMBERED_TOKEN = 256;
/** Tokens remembered at most per entropy detector (the set starts over when full). */
const MAX_REMEMBERED_TOKENS = 4_096;
/** Trigger words a {@link TriggerScan} goes through in a text before it lets every detector run. */
const MAX_TRIGGER_MATCHES = 16;
/** Detectors with triggers that a {@link TriggerScan} tells apart (the bits of a positive 32-bit mask). */
const MAX_TRIGGER_BITS = 31;
// The memo of longTokenRuns(): its last text and what it found there.
let lastRunsText: string | undefined;
let lastRuns: LongTokenRuns = { bounds: [], longest: 0 };
// A word every name that `secretNameStrength` accepts contains (SECRET_NAME, `_PASS`, `_PWD`, `_KEY`).
const SECRET_NAME_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential'];
const SECRET_NAME_WORD = new RegExp(SECRET_NAME_WORDS.join('|'), 'i');
// What a quoted assignment to such a name contains: the word ending the name, an optional closing
// quote, the operator and the opening quote of the value.
const QUOTED_SECRET_ASSIGNMENT = /(?:pass|pwd|secret|token|key|credential)[A-Za-z0-9_.-]*["'`]?\s*(?::=|=>|=|:)\s*["'`]/i;
const SECRET_NAME =
  /(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|credentials?)$/i;
// Names that end like a secret's but hold something else: counts, pagination and cancellation tokens.
const NOT_SECRET_NAME = /(?:^|[_.-]|[a-z])(?:page|next|prev|previous|continuation|sync|cancellation|cancel|max|min|num|total|input|output|completion|prompt)[_-]?tokens?$|tokens$/i;
const PLACEHOLDER_WORD =
  /^(?:none|null|nil|undefined|true|false|yes|no|on|off|string|str|bytes|number|int|integer|bool|boolean|text|any|unknown|object|required|optional|redacted|hidden|masked|secret|password|passwd|token|changeme|change[-_]me|example|sample|dummy|placeholder|todo|tbd|default|empty|test|xxx+|\*+)$/i;

function hasDigit(secret: string): boolean {
  return /[0-9]/.test(secret);
}

// `NAME=value` (.env, shell, query strings), `name: value` (YAML), `"name": "value"` (JSON and
// code), `--name value` (command lines). Only the value is redacted; the name stays readable.
function credentialDetectors(): Detector[] {
  // `isCredential` accepts only names that end in one of the words of SECRET_NAME_WORD, and a
  // name never spans lines: only the lines holding such a word can hold a match.
  const secretNameLines = createLineFinder(SECRET_NAME_WORD);
  const named = (pattern: RegExp, mode: { isQuoted: boolean; isBareWordSecret?: boolean }, options: { isLineLocal?: boolean; prefilter?: RegExp } = {}): Detector =>
    patternDetector({
      kind: 'credential',
      pattern,
      isLineLocal: options.isLineLocal ?? false,
      candidateLines: secretNameLines,
      triggers: SECRET_NAME_WORDS,
      prefilter: options.prefilter,
      accept: (secret, match) => isCredential({ name: match.groups?.['name'] ?? '', value: secret, ...mode }),
    });
  return [
    named(/(?<![A-Za-z0-9_$])(["'`]?)(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,80})\1\s*(?::=|=>|=|:)\s*(["'`])(?<secret>(?:(?!\3)[^\\\n]|\\.){1,1000}?)\3/g, { isQuoted: true, isBareWordSecret: true }, { prefilter: QUOTED_SECRET_ASSIGNMENT }),
    // These three never match across a line break, and with the `m` flag a line break is a start
    // or an end to them: only the lines holding a secret-name word are scanned.
    named(/(?:^|(?<=[\s;&?(`'"]))(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,80})=(?<secret>[^\s'"`;&|<>(){}[\],]+)(?=$|[\s;&#'"`])/gm, { isQuoted: false, isBareWordSecret: true }, { isLineLocal: true }),
    named(/^[ \t]*(?:-[ \t]+)?(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,80}):[ \t]+(?<secret>[^\s'"`#|>&*!%@[{][^\s#]*)[ \t]*(?:#.*)?$/gm, { isQuoted: false }, { isLineLocal: true }),
    named(/(?:^|(?<=\s))--?(?<name>[A-Za-z][A-Za-z0-9-]{2,40})(?:=|[ \t]+)(["']?)(?<secret>[^\s'"`-][^\s'"`]*)\2(?=$|\s)/gm, { isQuoted: false }, { isLineLocal: true }),
  ];
}

function entropyDetector(threshold: number): Detector {
  // Sessions repeat their paths and identifiers: the tokens found not random are remembered (a
  // random-looking one, a secret, never is).
  const plain = new Set<string>();
  const isKnownPlain = (token: string): boolean => token.length <= MAX_REMEMBERED_TOKEN && plain.has(token);
  const isRandom = (token: string): boolean => {
    if (token.length > MAX_REMEMBERED_TOKEN) return isRandomLooking(token, threshold);
    if (plain.has(token)) return false;
    if (isRandomLooking(token, threshold)) return true;
    if (plain.size >= MAX_REMEMBERED_TOKENS) plain.clear();
    // A copy, so that a remembered token does not keep the text it was cut from alive.
    plain.add(` ${token}`.slice(1));
    return false;
  };
  return {
    kind: 'high-entropy',
    minRun: MIN_ENTROPY_TOKEN_LENGTH,
    find(text) {
      // Maximal runs (see longTokenRuns), with the padding and the boundaries checked by hand: the
      // same matches as /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{20,}={0,3}(?![A-Za-z0-9+/=_-])/g,
      // whose backtracking overflows the regexp stack on a run of a few million characters.
      let spans: (readonly [number, number])[] | undefined;
      const { bounds } = longTokenRuns(text);
      for (let index = 0; index < bounds.length; index += 2) {
        const start = bounds[index] as number;
        if (text[start - 1] === '=') continue;
        let end = bounds[index + 1] as number;
        let padding = 0;
        while (padding < 3 && text[end] === '=') {
          end += 1;
          padding += 1;
        }
        if (end < text.length && /[A-Za-z0-9+/=_-]/.test(text[end] as string)) continue;
        const token = text.slice(start, end);
        // A token found plain before (a path, an identifier) needs no second look.
        if (isKnownPlain(token)) continue;
        const before = text.slice(Math.max(0, start - 12), start);
        // Content hashes and inline data are not secrets: SRI/npm integrity, go.sum, data URIs.
        if (/(?:sha(?:1|224|256|384|512)|md5|h1|blake2b?)[-:]$|base64,$/i.test(before)) continue;
        if (/^(?:sha(?:1|224|256|384|512)|md5)-/i.test(token)) continue;
        if (!isRandom(token)) continue;
        (spans ??= []).push([start, start + token.length] as const);
      }
      return spans ?? NO_SPANS;
    },
  };
}

// Whether `text` holds one of `needles`: a loop, as every recorded text passes here.
function includesAny(text: string, needles: readonly string[]): boolean {
  for (let index = 0; index < needles.length; index += 1) if (text.includes(needles[index] as string)) return true;
  return false;
}

const NO_WORDS_SCAN = (): number => 0;
/** The scans of {@link createTriggerScan} made so far, by their words and masks. */
const scansBySignature = new Map<string, (text: string) => number>();
/** Scans remembered at most (the built-in detectors need one per set of extra patterns' kinds). */
const MAX_PATTERNS_REMEMBERED = 64;

// The scan of createTriggerScan for words (lower case) and the mask of the detectors of each.
function createWordScan(wordBits: ReadonlyMap<string, number>): (text: string) => number {
  const words = [...wordBits.keys()].sort((left, right) => right.length - left.length || (left < right ? -1 : 1));
  // The bits of a word and of every word that is a prefix of it.
  const matchBits = new Map<string, number>();
  for (const word of words) {
    let mask = 0;
    for (const other of words) if (word.startsWith(other)) mask |= wordBits.get(other) as number;
    matchBits.set(word, mask);
  }
  let all = 0;
  for (const mask of wordBits.values()) all |= mask;
  const pattern = wordsPattern(words);
  return (text) => {
    let found = 0;
    let matches = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      found |= matchBits.get(match[0].toLowerCase()) ?? all;
      // A text full of trigger words (a config file, a long log) runs every detector that has
      // one: their own searches cost less than going through every occurrence.
      matches += 1;
      if (found === all || matches >= MAX_TRIGGER_MATCHES) return all;
      pattern.lastIndex = match.index + 1;
    }
    return found;
  };
}

// A RegExp (`g`) that finds any of `words` (lower case, longest first), in any letter case, and at
// each place the longest of them. ASCII words are grouped by their first character, each letter
// written as its two cases (`[kK](?:ey|…)`): V8 then looks at one character class per place where
// `/word|…/gi` tried every word, in a fifth less time. A word with another character (whose
// case `i` also folds) keeps the plain `gi` alternation.
function wordsPattern(words: readonly string[]): RegExp {
  if (!words.every((word) => /^[\x20-\x7e]+$/.test(word))) return compiledPattern(words.map(escapeRegExp).join('|'), 'gi');
  const byFirst = new Map<string, string[]>();
  for (const word of words) {
    const rests = byFirst.get(word.charAt(0));
    if (rests === undefined) byFirst.set(word.charAt(0), [word.slice(1)]);
    else rests.push(word.slice(1));
  }
  const groups = [...byFirst].map(([first, rests]) => `${eitherCase(first)}(?:${rests.map(eitherCase).join('|')})`);
  return compiledPattern(groups.join('|'), 'g');
}

// An ASCII text as a RegExp source that matches it in any letter case.
function eitherCase(text: string): string {
  return escapeRegExp(text).replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// The characters of /[A-Za-z0-9+/_-]/.
function isRunCharacter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 47 && code <= 57) || code === 43 || code === 45 || code === 95;
}

// After the BEGIN line: optional `Name: value` header lines, then lines of base64, each ending
// in a real or an escaped (`\n` in JSON) line break.
const PEM_BODY = /^[ \t]*(?:\r?\n|\\r?\\n)(?:[A-Za-z-]+: [^\n\\]*(?:\r?\n|\\r?\\n)|[ \t]*(?:\r?\n|\\r?\\n))*(?:[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*(?:\r?\n|\\r?\\n|$))+/;

// A PEM private key block. Without its END line (a truncated paste), the base64 body that follows
// the BEGIN line is taken; a BEGIN line followed by no key material (code that mentions the
// marker) is left alone.
function findPrivateKeys(text: string): Iterable<readonly [number, number]> {
  return text.includes('PRIVATE KEY') ? findPrivateKeyBlocks(text) : NO_SPANS;
}

function* findPrivateKeyBlocks(text: string): Generator<readonly [number, number]> {
  const begin = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
  for (let match = begin.exec(text); match !== null; match = begin.exec(text)) {
    const start = match.index;
    const bodyStart = start + match[0].length;
    const endMarker = `-----END ${match[1] ?? ''}PRIVATE KEY`;
    const endIndex = text.indexOf(endMarker, bodyStart);
    if (endIndex !== -1 && endIndex - bodyStart < 64_000) {
      const close = text.indexOf('-----', endIndex + endMarker.length);
      const end = close === -1 ? endIndex + endMarker.length : close + 5;
      begin.lastIndex = end;
      yield [start, end] as const;
      continue;
    }
    const body = PEM_BODY.exec(text.slice(bodyStart, bodyStart + 64_000));
    if (body === null) continue;
    const length = body[0].length;
    begin.lastIndex = bodyStart + length;
    yield [start, bodyStart + length] as const;
  }
}
