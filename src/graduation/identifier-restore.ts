import type { SummarizeResult } from '../summarizer/summarizer.js';
import type { Entry, SummarySectionData } from '../types.js';
import { extractIdentifiers } from './retention.js';

/**
 * Checks that the identifiers of a chunk (paths, symbols, error names, numbers with units)
 * survive into its summary or facts, and appends the missing ones so that no summarizer can drop
 * them silently.
 */
export function restoreIdentifiers(options: {
  entries: readonly Entry[];
  result: SummarizeResult;
  countTokens: (text: string) => number;
  maxTokens: number;
}): SummarizeResult {
  // Ranked: error names, paths, numbers with units, then code symbols. Prose in backticks and
  // code fragments are not identifiers and are left to the summary.
  const ranked: [string[], string[], string[], string[]] = [[], [], [], []];
  const seen = new Set<string>();
  const add = (identifier: string): void => {
    const rank = identifierRank(identifier);
    if (rank === undefined || seen.has(identifier)) return;
    seen.add(identifier);
    ranked[rank]?.push(identifier);
  };
  for (const entry of options.entries) {
    if (entry.path !== undefined) add(entry.path);
    if (entry.kind === 'user' || entry.kind === 'assistant') {
      for (const identifier of extractIdentifiers(entry.text)) add(identifier);
    } else if (entry.kind === 'tool-result') {
      for (const match of entry.text.matchAll(ERROR_NAME)) add(match[0]);
    }
  }
  const haystack = [
    options.result.summary,
    ...(options.result.facts ?? []).map((fact) => fact.value),
    ...(options.result.tasks ?? []).map((task) => task.title),
  ].join('\n');
  const missing = ranked.flat().filter((identifier) => !haystack.includes(identifier));
  // A name in a shape that says nothing without its sentence (`#pay-alerts`, `ledger-core`,
  // `zod@3.22.4`) keeps the sentence that carried it rather than a bare mention.
  const statements = namedStatements(options.entries, haystack);
  if (missing.length === 0 && statements.length === 0) return options.result;
  const lines: string[] = [];
  let used = 0;
  for (const statement of statements) {
    const candidate = `Notes: ${statement}`;
    const cost = options.countTokens(candidate) + 1;
    if (used + cost > options.maxTokens) break;
    lines.push(candidate);
    used += cost;
  }
  const kept: string[] = [];
  let line = '';
  for (const identifier of missing) {
    const candidate = `Notes: also mentioned ${[...kept, `\`${identifier}\``].join(', ')}`;
    if (used + options.countTokens(candidate) > options.maxTokens) break;
    kept.push(`\`${identifier}\``);
    line = candidate;
  }
  if (line.length > 0) lines.push(line);
  if (lines.length === 0) return options.result;
  const summary = `${options.result.summary.trimEnd()}\n${lines.join('\n')}`;
  if (options.result.sections === undefined) return { ...options.result, summary };
  // The line renders as a section of its own after the others, exactly as appended to the text.
  const seqs = options.entries.map((entry) => entry.seq);
  const source = { from: Math.min(...seqs), to: Math.max(...seqs) };
  const added: SummarySectionData = { name: 'Notes', items: lines.map((text) => ({ text: text.slice('Notes: '.length), source })) };
  return { ...options.result, summary, sections: [...options.result.sections, added] };
}

// --- Internal helpers ---

/**
 * The sentences of the chunk's messages that carry a name the summary lost (a chat channel, a
 * hyphenated service or package name that ends its clause, a version pin), each once, in order.
 */
function namedStatements(entries: readonly Entry[], haystack: string): string[] {
  const statements: string[] = [];
  const named = new Set<string>();
  for (const entry of entries) {
    if (entry.kind !== 'user' && entry.kind !== 'assistant') continue;
    for (const sentence of entry.text.split(SENTENCE_BREAK)) {
      const names = extractIdentifiers(sentence).filter((identifier) => isNameShape(identifier, sentence) && !haystack.includes(identifier) && !named.has(identifier));
      if (names.length === 0 || sentence.length > MAX_STATEMENT_CHARS || sentence.includes('`')) continue;
      for (const name of names) named.add(name);
      statements.push(sentence.trim());
    }
  }
  return statements;
}

function isNameShape(identifier: string, sentence: string): boolean {
  if (IS_CHANNEL.test(identifier) || IS_PIN.test(identifier)) return true;
  if (!IS_HYPHENATED.test(identifier)) return false;
  // Followed by a word it modifies a noun ("the bulk-actions toolbar"); a name ends its clause.
  const after = sentence.slice(sentence.indexOf(identifier) + identifier.length);
  return /^\s*(?:[.,;:!?)]|$)/u.test(after);
}

const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/u;
const MAX_STATEMENT_CHARS = 240;
const IS_CHANNEL = /^#[a-z]/u;
const IS_PIN = /^(?:@[\w.-]+\/)?[a-z][\w.-]*@[\^~]?\d/u;
const IS_HYPHENATED = /^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+$/u;

const ERROR_NAME = /\b(?:[A-Z][A-Za-z]*(?:Error|Exception)|E[A-Z]{3,})\b/g;
const IS_ERROR_NAME = /^(?:[A-Z][A-Za-z]*(?:Error|Exception)|E[A-Z]{3,})$/;
const IS_PATH = /^(?:[\w.@-]+\/)+[\w.@-]+$|^[\w-]+\.[a-z]{1,5}$/;
const IS_QUANTITY = /^\d[\d.,]*\s?[A-Za-z%]+(?:\s[a-z]+){0,3}$/;
const IS_SYMBOL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$|^--?[a-z][\w-]*(?:=\S+)?$/;

function identifierRank(identifier: string): 0 | 1 | 2 | 3 | undefined {
  if (identifier.length < 2 || identifier.length > 60) return undefined;
  if (IS_ERROR_NAME.test(identifier)) return 0;
  if (IS_PATH.test(identifier)) return 1;
  if (IS_QUANTITY.test(identifier)) return 2;
  // A symbol needs a case change, an underscore or a dot to be an identifier rather than a word.
  if (IS_SYMBOL.test(identifier) && /[a-z][A-Z]|_|\.|^--?/.test(identifier)) return 3;
  return undefined;
}

