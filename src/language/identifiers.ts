import { detachedCopy } from '../detached-copy.js';
import { createRecentMemo } from '../recent-memo.js';

/**
 * Extracts the identifiers a summary must not lose, deduplicated in first-seen order: file paths
 * (with `:line`), `` `code spans` `` (without the backticks), `--flags`, error names
 * (`TypeError`, `ECONNRESET`), symbols with a case change, an underscore, a dot call or a digit
 * (`camelCase`, `snake_case`, `PascalCase`, `pool.close()`, `UUIDv7`), ticket keys (`ABC-142`),
 * dotted names (`ff.checkout.retry`), language tags (`pt-BR`), inline settings (`TZ=UTC`), casts and
 * scoped names (`::jsonb`, `std::string`), media types (`problem+json`), versions (`Node 18.19`),
 * chat channels (`#deploy-alerts`), version pins (`zod@3.22.4`), hyphenated lower-case names of
 * services and packages (`ledger-core`, `npm-check-updates`; not compound words such as
 * `hard-coded` or `client-side`), a lower-case name in parentheses after a noun (`the pooler
 * (pgbouncer)`) and numbers with units (`5s`, `250ms`, `4GB`, `12 retries`, `30 requests per
 * minute`). Overlapping matches keep the earliest, longest one.
 */
export function extractIdentifiers(text: string): string[] {
  // The same sentence is read by salience, fact extraction and the summarizer in turn: the
  // identifiers of the texts read last are remembered (a copy is handed out each time).
  const known = recentIdentifiers.get(text);
  if (known !== undefined) return [...known];
  const identifiers = scanIdentifiers(text);
  if (text.length <= MAX_REMEMBERED_TEXT) recentIdentifiers.set(text, identifiers);
  return [...identifiers];
}

/**
 * The slash-separated names in `text` (`src/api/handler.ts`, `org/repo`, `a/b`), in order. A match
 * starts only where a run of name characters starts, so a long run without a slash is read once
 * rather than once per character.
 */
export function slashPaths(text: string): string[] {
  return text.match(SLASH_PATH) ?? [];
}

/** The patterns {@link extractIdentifiers} scans with, for tests that check it against matchAll(). @internal */
export function identifierPatterns(): readonly { readonly regex: RegExp; readonly group: number }[] {
  return IDENTIFIER_PATTERNS;
}

/**
 * The identifier a match of `regex` (one of {@link identifierPatterns}) stands for: `raw` (its
 * group) trimmed of the punctuation that belongs to the prose, or `undefined` when it is dropped.
 * @internal
 */
export function identifierOfMatch(raw: string, regex: RegExp): string | undefined {
  const value = trimIdentifier(raw);
  if (value.length < 2 || value.length > 120) return undefined;
  if (regex === HYPHENATED_NAME && isCompoundWord(value)) return undefined;
  if (regex === NAME_IN_PARENTHESES && !isNameInParentheses(value)) return undefined;
  return value;
}

// --- Internal helpers ---

const SLASH_PATH = /(?<![\w.-])(?:[\w.-]+\/)+[\w.-]+/gu;

/** Longest text whose identifiers are remembered (a sentence or a short message). */
const MAX_REMEMBERED_TEXT = 4_096;
/** Texts whose identifiers are remembered per generation: far fewer than one graduation reads. */
const REMEMBERED_TEXTS = 64;
const recentIdentifiers = createRecentMemo<readonly string[]>({ size: REMEMBERED_TEXTS, keyOf: detachedCopy });

// The identifiers of `text` (see extractIdentifiers). An exec() loop on each pattern rather than
// matchAll(), which clones the regex and makes an iterator on every call; nothing runs between
// the reset of `lastIndex` and the loop's end, so sharing the global patterns is safe.
function scanIdentifiers(text: string): string[] {
  const found: { start: number; end: number; value: string }[] = [];
  for (const { regex, group } of IDENTIFIER_PATTERNS) {
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0] === '') regex.lastIndex += 1; // none of the patterns matches empty; never loop
      const raw = match[group] ?? match[0];
      const offset = match[0].indexOf(raw);
      const value = identifierOfMatch(raw, regex);
      if (value === undefined) continue;
      const start = match.index + Math.max(offset, 0);
      found.push({ start, end: start + value.length, value });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const identifiers: string[] = [];
  const seen = new Set<string>();
  let coveredUntil = -1;
  for (const item of found) {
    if (item.start < coveredUntil) continue;
    coveredUntil = item.end;
    if (seen.has(item.value)) continue;
    seen.add(item.value);
    identifiers.push(item.value);
  }
  return identifiers;
}

// Lower-case words joined by hyphens: service and package names (`ledger-core`, `fx-rates-sync`).
const HYPHENATED_NAME = /(?<![\w./@#$=-])([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?![\w/=@-]|\.\w)/gu;
// A single lower-case word in parentheses right after a word: "the pooler (pgbouncer)".
const NAME_IN_PARENTHESES = /(?<=\p{L}\s\()(\p{Ll}[\p{Ll}\p{N}.+-]{2,30})(?=\))/gu;

const IDENTIFIER_PATTERNS: readonly { regex: RegExp; group: number }[] = [
  // `code spans`
  { regex: /`([^`\n]{1,120})`/gu, group: 1 },
  // paths with a directory or a known extension, with an optional :line(:column)
  {
    regex:
      /(?<![\w/.@-])((?:\.{1,2}\/|~\/|\/)?(?:[\w@.-]+\/)+[\w.-]*(?::\d+(?::\d+)?)?|[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|php|cs|c|h|cpp|hpp|sql|json|ya?ml|toml|md|sh|css|scss|html|txt|csv|lock|env|ini|cfg)(?::\d+(?::\d+)?)?)(?![\w/])/gu,
    group: 1,
  },
  // --flags
  { regex: /(?<![\w-])(--[A-Za-z][\w-]*(?:=[^\s,;`'"]+)?)/gu, group: 1 },
  // chat channels: `#deploy-alerts`, `#ops` (a heading's `#` is followed by a space)
  { regex: /(?<![\w&#/])(#[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*)(?![\w-])/gu, group: 1 },
  // version pins of packages: `zod@3.22.4`, `@scope/pkg@^2.1`
  { regex: /(?<![\w@/.-])((?:@[\w.-]+\/)?[a-z][\w.-]*@[\^~]?\d+(?:\.\d+){0,2}(?:-[\w.]+)?)(?![\w])/gu, group: 1 },
  { regex: HYPHENATED_NAME, group: 1 },
  { regex: NAME_IN_PARENTHESES, group: 1 },
  // error names
  { regex: /\b([A-Z][A-Za-z]*(?:Error|Exception)|E[A-Z]{3,})\b/gu, group: 1 },
  // hyphenated names with a capital in every part: header and product names (`X-Request-Id`, `Content-Type`)
  { regex: /(?<![\w-])([A-Z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]*)+)(?![\w-])/gu, group: 1 },
  // language tags: locales such as `pt-BR`, `en-US`, `zh-Hant-TW`, `es-419`
  { regex: /(?<![\w-])([a-z]{2,3}(?:-[A-Z][a-z]{3})?-(?:[A-Z]{2}|\d{3}))(?![\w-])/gu, group: 1 },
  // import aliases and path prefixes: `~/`, `@app/`, `#src/`
  { regex: /(?<![\w/@#~])([~@#][\w-]*\/)(?![\w/])/gu, group: 1 },
  // the term a list item defines, in bold: `**esbuild** - bundles …`, `**pg-boss**: …` (lower case or
  // with a hyphen, dot, underscore or digit: a name, not an emphasised word)
  { regex: /^\*\*((?=[^*\s]*[\p{Ll}][^*\s]*)(?:\p{Ll}[^*\s]{1,40}|[^*\s]*[-_.\d][^*\s]*))\*\*\s*(?:[-–—:]|$)/gu, group: 1 },
  // settings written inline, outside code spans: `TZ=UTC`, `tzinfo=timezone.utc`, `NODE_ENV=test`
  { regex: /(?<![\w.=/-])([A-Za-z_][\w.]*=(?:[\w.:-]*[\p{L}\p{N}_]))(?![\w=/])/gu, group: 1 },
  // casts and scoped names: `::jsonb`, `std::string`, `Foo::bar`
  { regex: /(?<![\w:])((?:[A-Za-z_]\w*)?::[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)(?![\w:])/gu, group: 1 },
  // media types and names joined by a plus: `problem+json`, `application/ld+json`, `vnd.api+json`
  { regex: /(?<![\w+.-])((?:[a-z][\w.-]*\/)?[a-z][\w.-]*\+[a-z][\w-]*)(?![\w+])/gu, group: 1 },
  // dunder names: folders and hooks such as `__mocks__`, `__init__`
  { regex: /(?<![\w$])(__[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*__)(?![\w$])/gu, group: 1 },
  // upper-case name prefixes written bare: "the `APP_` prefix" without the backticks
  { regex: /(?<![\w$])([A-Z][A-Z0-9]{1,15}_)(?=\s+(?:prefix|namespace)\b)/gu, group: 1 },
  // ticket keys
  { regex: /\b([A-Z][A-Z0-9]{1,9}-\d+)\b/gu, group: 1 },
  // versions after a product name
  { regex: /\b([A-Z][A-Za-z]+ v?\d+\.\d+(?:\.\d+)?)\b/gu, group: 1 },
  // dotted calls and members: pool.close(), Math.round, db.end(), Date.now
  {
    regex:
      /(?<![\w.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\(\)|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.[a-z_$]*[A-Z][\w$]*|[A-Z][a-zA-Z]+\.[a-z][\w$]*)(?![\w])/gu,
    group: 1,
  },
  // dotted names of three or more lower-case parts: flags, config keys, event names (`ff.checkout.retry`)
  { regex: /(?<![\w.@/$-])([a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*){2,})(?![\w/(])/gu, group: 1 },
  // camelCase, PascalCase with two humps, snake_case, SCREAMING_SNAKE, names with digits
  {
    regex:
      /(?<![\w$])([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z]{2,}[a-z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Za-z]+\d+[A-Za-z0-9]*)(?![\w$])/gu,
    group: 1,
  },
  // numbers with units or counted nouns: 5s, 250ms, 4GB, 12 retries, 30 requests per minute
  {
    regex:
      /(?<![\w.])((?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)(?:\s?(?:ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?|weeks?|[kKMGT]i?B|%|px|k)\b|\s(?:[a-z-]+\s)?[a-z]{2,}s\b(?:\s(?:per|a|an|each)\s[a-z]+)*))(?![\w])/giu,
    group: 1,
  },
];

/**
 * Whether hyphenated lower-case words make an English compound rather than a name: a part that is
 * a short particle (`built-in`, `end-to-end`, `follow-up`) or a participle or adverb (`hard-coded`,
 * `long-running`, `read-only`), or a common compound head or modifier (`client-side`, `non-empty`).
 */
function isCompoundWord(value: string): boolean {
  const parts = value.split('-');
  if (parts.some((part) => part.length <= 3 && !/\d/u.test(part) && COMPOUND_PARTICLE.test(part))) return true;
  if (parts.some((part) => /(?:ed|ing|ly|en|ful|less|ish|ward)$/u.test(part))) return true;
  return COMPOUND_HEAD.test(parts[0] ?? '') || COMPOUND_TAIL.test(parts[parts.length - 1] ?? '');
}

/** Whether a word in parentheses names something rather than qualifying what precedes it. */
function isNameInParentheses(value: string): boolean {
  return !/(?:ed|ing|ly|al|ive|ible|able|ary|ory)$/u.test(value) && !PARENTHESISED_WORD.test(value);
}

// English particles and short words that join compounds (`built-in`, `up-to-date`, `e-mail`).
const COMPOUND_PARTICLE = /^(?:a|an|as|at|by|de|e|in|is|it|of|off|on|or|out|to|up|the|and|per|pre|re|co|non|x|y|z|one|two|ten|all|day|end|top|low|few|new|old|big|so|its|own|way|how|via)$/u;
const COMPOUND_HEAD = /^(?:self|multi|semi|anti|cross|well|sub|inter|over|under|high|real|first|second|third|single|double|full|half|open|hard|soft|long|short|read|write|case|side|step|opt|sign|log|check|follow|set|clean|back|front|near|last|next|fast|slow|left|right|same|auto|ever|never|must|would|nice|good|bad|best|worst|human|machine|time|zero|three|four|five|six|seven|eight|nine|quasi|post|ultra|mid|out|non|pre|extra|catch|free|easy|hand|rule|brand)$/u;
const COMPOUND_TAIL = /^(?:side|level|time|class|party|only|based|like|free|safe|wide|aware|friendly|specific|sensitive|insensitive|proof|ready|style|tier|grade|scale|term|range|point|sized|size|step|date|case|way|hoc|versa|fi|ish|hand|first|last|body|page|thing|ever|related|critical|heavy|light|bound|facing|agnostic|native|compatible|oriented|driven|enabled)$/u;
// Words that qualify what precedes them rather than name it: "(optional)", "(sic)", "(again)".
const PARENTHESISED_WORD = /^(?:optional|required|default|again|too|also|sic|etc|maybe|see|note|mostly|now|here|there|yet|still|twice|once|both|all|none|each|new|old|same|above|below|later|soon|hopefully|probably|obviously|roughly|approx|ish|todo|wip|thanks|lol|yes|no|ok|okay|sorry|please|deprecated|legacy|unused|untested|recommended|preferred|experimental|beta|alpha|stable|internal|private|public|global|local|temporary|temp|manual|automatic|inclusive|exclusive|seconds|minutes|hours|days|bytes|tokens|lines|rows|items|times|per|via|plural|singular|sorted|nullable|readonly|async|sync|trailing|leading|index|kinda|sorta|hmm)$/u;

function trimIdentifier(value: string): string {
  let text = value.replace(/^[([{<"']+/u, '').replace(/[\]}>"',;:!?]+$/u, '').replace(/\.+$/u, '');
  // Keep the parentheses of `pool.close()`; drop a closing one that belongs to the prose.
  while (text.endsWith(')') && count(text, ')') > count(text, '(')) text = text.slice(0, -1).replace(/\.+$/u, '');
  return text;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}
