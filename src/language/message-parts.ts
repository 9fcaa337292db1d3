// Where a statement sits in a message decides how it is read. A remark set apart in parentheses
// ("… (we ship it behind the `beta_search` flag, by the way)") and a shorthand note line ("DB pool:
// 20 connections max", "- queue → BullMQ") are sentences of their own, not part of the sentence
// around them or the line next to them. A message that quotes an earlier one ("> Postgres or
// SQLite for the test DB?") and answers under the quote holds two voices: the quoted block ends
// where the reply begins, and the reply answers what was quoted.

import { endsInQuestion } from './answered-question.js';

/** A quoted block of a message and the speaker's own text right under it. */
export interface QuotedReply {
  /** The quoted lines, markers removed, joined with line breaks. */
  readonly quoted: string;
  /** The text under the quote up to the next quote or the end, trimmed. */
  readonly reply: string;
}

/**
 * Whether a line is a shorthand note: a short label (one to four words, no sentence punctuation)
 * followed by a colon or an arrow and a value ("DB pool: 20 connections max", "queue → BullMQ",
 * "retries -> 3"). Such a line is read on its own: it neither continues the line above nor is
 * continued by the line below. A line that only introduces what follows ("Summary:") is not one.
 */
export function isNoteLine(line: string): boolean {
  return NOTE_LINE.test(line.trim());
}

/**
 * Splits the remarks a sentence sets apart in parentheses from it: "hook up the ranking next (we
 * ship it behind the `beta_search` flag, by the way)" → the request and "we ship it behind the
 * `beta_search` flag, by the way". Only an aside of a few words is set apart; a name or a
 * qualifier in parentheses ("the pooler (pgbouncer)", "(optional)", "(see above)") stays, as does a
 * sentence that is an aside as a whole. Parentheses inside `code spans` are code. Returns the
 * sentence without its asides, then the asides, or just the sentence when it has none.
 */
export function setApartAsides(sentence: string): string[] {
  const masked = sentence.replace(CODE_SPAN, (span) => '_'.repeat(span.length));
  const asides: { start: number; end: number }[] = [];
  let depth = 0;
  let open = -1;
  for (let index = 0; index < masked.length; index += 1) {
    const char = masked.charAt(index);
    if (char === '(') {
      // An aside opens after a space; "f(x)" and "error(s)" are code and words.
      if (depth === 0) open = index === 0 || /\s/u.test(masked.charAt(index - 1)) ? index : -1;
      depth += 1;
    } else if (char === ')' && depth > 0) {
      depth -= 1;
      if (depth === 0 && open >= 0) asides.push({ start: open, end: index + 1 });
    }
  }
  const kept = asides.filter(({ start, end }) => isAside(sentence.slice(start + 1, end - 1)));
  if (kept.length === 0) return [sentence];
  let rest = '';
  let from = 0;
  for (const { start, end } of kept) {
    rest += sentence.slice(from, start);
    from = end;
  }
  rest = `${rest}${sentence.slice(from)}`.replace(/\s+([,.;:!?])/gu, '$1').replace(/\s{2,}/gu, ' ').trim();
  const parts = kept.map(({ start, end }) => sentence.slice(start + 1, end - 1).trim().replace(/[.!]$/u, '').trim());
  // Nothing but punctuation around the asides: the sentence is an aside as a whole.
  if (!/[\p{L}\p{N}]/u.test(rest)) return [sentence];
  return [rest, ...parts];
}

/**
 * The quoted blocks of a message ("> …" lines) that have the speaker's own text under them, each
 * with that text: the reply to what was quoted. Lines inside code fences are neither. A quote with
 * nothing under it is left out.
 */
export function quotedReplies(text: string): QuotedReply[] {
  const replies: QuotedReply[] = [];
  let quoted: string[] = [];
  let reply: string[] = [];
  let isInFence = false;
  const flush = (): void => {
    const own = reply.join('\n').trim();
    if (quoted.length > 0 && own.length > 0) replies.push({ quoted: quoted.join('\n').trim(), reply: own });
    quoted = [];
    reply = [];
  };
  for (const line of text.split(/\r?\n/u)) {
    if (FENCE.test(line)) isInFence = !isInFence;
    const quote = isInFence ? null : QUOTE_LINE.exec(line);
    if (quote !== null) {
      // A new quote after a reply starts a new pair.
      if (reply.some((own) => own.trim().length > 0)) flush();
      quoted.push(quote[1] ?? '');
    } else if (quoted.length > 0) {
      reply.push(line);
    }
  }
  flush();
  return replies;
}

/**
 * The message without the quoted questions that have a reply under them: the question and its
 * answer are read together (see `quotedReplies`), and the question alone is no statement. A quoted
 * statement stays, answered or not: quoting a ticket or a teammate brings its words in as they are
 * ("> Unit tests cannot reach the network here" then "that is settled").
 */
export function withoutAnsweredQuestions(text: string): string {
  const kept: string[] = [];
  let block: string[] = [];
  let isInFence = false;
  const close = (isAnswered: boolean): void => {
    const quoted = block.filter((line) => QUOTE_LINE.test(line));
    const isQuestion = endsInQuestion(quoted.map((line) => QUOTE_LINE.exec(line)?.[1] ?? '').join('\n'));
    if (!(isAnswered && isQuestion)) kept.push(...block);
    block = [];
  };
  for (const line of text.split(/\r?\n/u)) {
    if (FENCE.test(line)) isInFence = !isInFence;
    if (!isInFence && QUOTE_LINE.test(line)) {
      block.push(line);
      continue;
    }
    // The block is answered when own words follow it; blank lines in between keep it open.
    if (block.length > 0 && line.trim().length === 0) {
      block.push(line);
      continue;
    }
    if (block.length > 0) close(true);
    kept.push(line);
  }
  if (block.length > 0) close(false);
  return kept.join('\n');
}

// --- Internal helpers ---

// One to four words of label, then ":" or an arrow, then a value on the same line.
const NOTE_LINE = /^(?:[-*+•]\s+)?(?:[\p{L}][\p{L}\p{N}'’/&-]*\s+){0,3}[\p{L}][\p{L}\p{N}'’/&-]*\s*(?::|->|→|=>)\s+\S/u;
const CODE_SPAN = /`[^`\n]*`/gu;
const QUOTE_LINE = /^\s{0,3}>\s?(.*)$/u;
const FENCE = /^\s{0,3}(?:```|~~~)/u;
// Words an aside needs to be a remark of its own rather than a name or a qualifier.
const MIN_ASIDE_WORDS = 4;
const ASIDE_WORD = /[\p{L}\p{N}`][\p{L}\p{N}_'’.`-]*/gu;

function isAside(inner: string): boolean {
  // A quoted string in parentheses is a value, not a remark.
  if (/^\s*["'“‘]/u.test(inner)) return false;
  const words = inner.match(ASIDE_WORD) ?? [];
  return words.length >= MIN_ASIDE_WORDS && /\p{L}{2,}\s+\p{L}/u.test(inner.replace(CODE_SPAN, 'x'));
}
