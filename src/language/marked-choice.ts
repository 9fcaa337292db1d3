// A choice can be written as the options with a mark on each rather than as a sentence with a
// choosing verb, by either speaker: "Options: moment (rejected), luxon (rejected), date-fns
// (chosen)", "| Keycloak | chosen |", "of the brokers we compared, NATS was selected", "`/orders`
// pages by cursor; offset was ruled out". What decides is the mark on an option (chosen, picked,
// selected) next to the sign of a comparison (another option marked as ruled out,
// "of the … we compared", a list of options), or an alternative ruled out after a statement. An
// option listed with no mark, or a mark with nothing compared ("3 rows were selected"), is not.

/**
 * Whether a sentence states a choice by marking options: one option marked chosen and either
 * another marked as ruled out or the comparison named ("of the providers we evaluated, …",
 * "options for dates: …"), or a statement followed by the alternative it ruled out ("… ; offset
 * was ruled out"). Questions and open marks ("not chosen yet", "to be picked") are not.
 */
export function isMarkedChoice(sentence: string): boolean {
  const text = sentence.replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || QUESTION_END.test(text) || OPEN_MARK.test(text)) return false;
  const chosen = CHOSEN_MARK.test(text);
  const rejected = REJECTED_MARK.test(text);
  if (chosen && (rejected || COMPARISON.test(text) || BARE_MARK.test(text))) return true;
  // "`/orders` uses cursor pagination; offset was ruled out": what is used, then what is not.
  const ruledOut = RULED_OUT_AFTER.exec(text);
  return ruledOut !== null && ruledOut.index > 0 && STATEMENT_BEFORE.test(text.slice(0, ruledOut.index));
}

// --- Internal helpers ---

const QUESTION_END = /\?\s*["')\]|]*$/u;
// A mark that leaves the choice open: "not chosen yet", "still to be picked", "once one is selected".
const OPEN_MARK = /\b(?:not|never|yet to be|to be|still|once|if|until|whichever|who)\s+(?:\p{L}+\s+)?(?:chosen|picked|selected|decided)\b/iu;
// An option marked chosen: in parentheses or a cell ("(chosen)", "| picked |"), after a dash or a
// colon ("— picked", ": selected"), as a passive verb after it ("NATS was selected").
const MARK_WORDS = String.raw`(?:chosen|picked|selected|adopted|preferred|accepted|approved|the winner|winner|going with (?:this|it|that)|we go with (?:this|it|that))`;
const CHOSEN_MARK = new RegExp(
  String.raw`[(|]\s*(?:\*\*)?${MARK_WORDS}(?:\*\*)?\s*[)|,]|\s[—–:-]{1,2}\s*(?:\*\*)?${MARK_WORDS}(?:\*\*)?\s*(?:[.;,)|]|$)|(?:was|were|got|is|has been|gets)\s+(?:\p{L}+ly\s+)?(?:chosen|picked|selected|adopted|approved)(?!\s+(?:by|for|from|as)\b)`,
  'iu',
);
// An option and its mark, nothing else: a list item "pdfmake (chosen)", a row "| pdfmake | picked |".
const BARE_MARK = /^\|?\s*[`\p{L}][^|()]{0,40}?\s*(?:\(|\||[—–:-]{1,2})\s*(?:\*\*)?(?:chosen|picked|selected|the winner|winner)(?:\*\*)?\s*\)?\s*\|?\s*\.?$/iu;
// An option marked as not taken: "(rejected, too heavy)", "— no", "| dropped |", "luxon was ruled out".
const REJECTED_MARK = /[(|]\s*(?:rejected|ruled out|dropped|discarded|no|not chosen|too [\p{L}-]+)\b|\s[—–:-]{1,2}\s*(?:rejected|ruled out|dropped|discarded|no|nope)\s*(?:[.;,)|]|$)|\b(?:was|were|got|is)\s+(?:rejected|ruled out|discarded|dropped)\b/iu;
// The comparison named: "of the providers we compared", "options for X:", "X vs Y", "candidates:".
const COMPARISON = /\b(?:of|among|between|from)\s+(?:the\s+|all\s+)?(?:\p{L}+\s+){0,3}(?:we|I|you)\s+(?:compared|evaluated|considered|looked at|tried|benchmarked|tested|shortlisted)\b|\b(?:options?|candidates?|alternatives?|contenders?|choices?)\b[^.]{0,40}[:|]|\bvs\.?\s|\bversus\b|\bcompared\b/iu;
// An alternative ruled out after what was chosen: "…; offset was ruled out", "…, polling rejected".
const RULED_OUT_AFTER = /(?:;\s+|,\s+|\s[—–-]{1,2}\s+)(?:and\s+)?(?:the\s+)?[\p{L}`][\p{L}\p{N}`/._-]*(?:\s+[\p{L}\p{N}`/._-]+){0,2}\s+(?:was|were|is|got|has been)\s+(?:ruled out|rejected|dropped|discarded)\b/iu;
// A statement of its own before the ruled-out alternative: a subject and a present-tense verb.
const STATEMENT_BEFORE = /^(?:`[^`]+`|[\p{L}\p{N}][\p{L}\p{N}/._-]*)(?:\s+[\p{L}\p{N}`/._-]+){0,3}\s+(?:uses|use|goes|go|runs|run|is|are|stays|stay|pages|paginates|keeps|keep|relies|rely|sits|sit|lives|live)\b/iu;
