import type { PatternMatcher } from '../boundaries/pattern-pack.js';
import { topicWords } from '../graduation/retention.js';

/**
 * How a sentence settles something for later (see {@link settlementOf}):
 * - `agreement`: the speakers agreed on it or commit to it ("the retry budget stays at five, as
 *   we decided", "so we go with Caddy for TLS");
 * - `marked`: it is set apart as something to keep (a short label before it: "Worth keeping: the
 *   bucket holds 90 days of logs");
 * - `listener`: it tells how the listener said they want things ("split the PR in two, since you
 *   told me smaller diffs are easier for you to read").
 */
export type Settlement = 'agreement' | 'marked' | 'listener';

/**
 * Tells whether a sentence settles something for the future, the way a careful reader of a long
 * message would pick it out from the narration around it: a cue that it holds beyond the moment
 * (the speakers' agreement or commitment, a label that sets it apart, the listener's own stated
 * wish) together with content that could be asked about later (a value with its unit, a name, or
 * at least two words of topic). Narration of what was just edited, remarks on the code read and
 * status recaps carry no such cue; questions and sentences that only announce a next step never
 * settle anything.
 */
export function settlementOf(sentence: string, options: { matcher: PatternMatcher; isQuestion: boolean; specifics: number }): Settlement | undefined {
  const text = sentence.replace(/`[^`\n]*`/gu, 'code').replace(/\s+/gu, ' ').trim();
  // A lead-in to what follows ("the new handler looks like this:") and an offer to the listener
  // ("if you want, I can …") settle nothing.
  if (options.isQuestion || QUESTION_END.test(text) || LEAD_IN_END.test(text) || OFFER.test(text) || text.length === 0) return undefined;
  // Moving on to other work ("next, the importer") is no choice that holds.
  if (options.matcher.test('topicChange', text)) return undefined;
  const topics = topicWords(text, { patterns: options.matcher.pack }).length;
  const hasValue = hasValueWithUnit(text, options.matcher);
  const hasContent = hasValue || options.specifics > 0 || topics >= MIN_TOPIC_WORDS;
  if (!hasContent) return undefined;
  if (LISTENER_WISH.test(text) && topics >= MIN_TOPIC_WORDS) return 'listener';
  if (AGREEMENT.test(text) || COMMITMENT.test(text)) return 'agreement';
  if (OWN_DOING.test(afterLabel(text)) || OWN_STEP.test(text) || CODE_LIKE.test(text)) return undefined;
  // A new choice the speakers make together, said as replacing the old one and naming what was
  // chosen: "we'll lint with Biome from now on".
  if (options.specifics > 0 && JOINT_CHANGE.test(text)) return 'agreement';
  // A label or a marker sets a statement apart ("Reminder: …", "as a rule, …"); it settles
  // something only with a value and its unit in it, not as a heading over narration or a field list.
  if (hasValue && options.matcher.test('factMarker', text)) return 'marked';
  return undefined;
}

/**
 * Tells whether a sentence is the speaker's own narration of what they just did ("I moved the
 * check up", "Trimmed the fixture to three rows"): such a sentence becomes no fact by itself,
 * whatever it settles.
 */
export function isOwnDoing(sentence: string): boolean {
  return OWN_DOING.test(afterLabel(sentence.trim()));
}

// --- Internal helpers ---

const MIN_TOPIC_WORDS = 2;
const QUESTION_END = /\?\s*["')\]]*\s*$/u;
const LEAD_IN_END = /:\s*\**\s*$/u;
const OFFER = /\b(?:if|whether|when|once)\s+you\b|\blet me know\b|\b(?:would|do|could|can)\s+you\b/iu;
// The speakers change a choice together: "we'll … from now on", "let's … instead".
const JOINT_CHANGE = /\b(?:let['’]s|we['’]ll|we will)\s+\p{L}+\b[^,;:]*\b(?:instead|from now on|going forward|replacing)\b/iu;
// A number with the unit or the things it counts right after it ("90 days", "15 s", "8 workers",
// "40%"), not a line number or a figure inside code.
const VALUES = /(?<![\p{L}\p{N}_.#:/-])\d+(?:[.,]\d+)?\s?(%|\p{L}+)\b(?!\s*[(=])/gu;
// References that hold numbers without being values: a line or a step number, an edit "(3 → 4)".
const CODE_REFERENCE = /\b(?:line|lines|row|column|col|step|item|issue|ticket|pr|commit|attempt|run|test|case)\s+#?\d+\b|\(\s*\d+\s*(?:→|->)\s*\d+\s*\)|\b\d+\s*(?:→|->)\s*\d+\b/giu;
// The speakers agreed on it or settled it: "we both agreed on …", "… as we decided" (not an
// opinion they share: "the team agreed the demo went well").
const AGREEMENT = /\b(?:we|you and I|the team)\s+(?:(?:have|had|all|both|already|just)\s+)?(?:(?:agreed|decided|settled)\s+(?:on|to|that|upon)|chose|picked|went with)\b|\b(?:as|what)\s+(?:we|you and I)\s+(?:(?:all|both)\s+)?(?:agreed|decided|settled on)\b|\bas agreed\b/iu;
// The speakers commit to it from now on: "so we go with Caddy", "we'll pin Node at 22", "let's
// keep the queue on SQS", "Bun is what we test with" (not a next step such as "we'll look into it").
const COMMITMENT = /\b(?:we|we['’]ll|we will|we['’]re|we are|let['’]s)\s+(?:now\s+|always\s+|just\s+)?(?:standardi[sz]e|standardi[sz]ing|go with|going with|stick with|sticking with|settle on|use|using|keep|keeping|adopt|adopting|default to|switch to|switching to|move to|moving to|pin|cap|target|aim for)\b|\b(?:is|are)\s+what\s+we\s+(?:use|build|ship|run|deploy|test|go with|settled on|picked|chose)\b/iu;
// The listener's own stated wish, relayed back to them: "since you told me smaller diffs are easier
// for you", "written the way you want the fixtures named".
const LISTENER_WISH = /\b(?:you|you['’]ve|you have|you['’]d)\s+(?:said|told me|mentioned|asked for|prefer|preferred|like|liked|want|wanted|find|found)\b(?:(?!\b(?:yesterday|earlier|before)\b).)*?\b(?:best|better|prefer\w*|like|want\w*|for you|works?|easier|clearer)\b|\b(?:the way|how)\s+you\s+(?:like|prefer|want)\b/iu;
// The speaker narrating their own step: "I moved …", "I've inlined …", "Trimmed the …".
const OWN_DOING = /^(?:(?:so|and|also|then|ok(?:ay)?|now)[,]?\s+)?(?:(?:i|i['’]ve|i have|we['’]ve|we have)\s+(?:just\s+|also\s+|now\s+)?\p{L}+ed\b|(?:i|we)\s+(?:made|kept|left|put|set|wrote|ran|took|gave|did|built|cut|split|moved|changed)\b|\p{L}+ed\s+(?:my|our|the|a|an|code)\b)/iu;
// Code or a signature read as prose: a field list with types, a comparison, a call.
const CODE_LIKE = /[{}[\]<>=;]|\w\(|\/\/|\b(?:int|bool|float|string|void|public|private)\s+\w/u;
// The speaker's own step anywhere in the sentence: "Finished: in the parser I bumped the limit …".
const OWN_STEP = /\b(?:I|I['’]ve|I have)\s+(?:just\s+|also\s+)?(?:\p{L}+ed|made|kept|left|put|set|wrote|ran|took|gave|did|built|cut|split)\b/u;
// A short label before a statement: "Reminder: …", "Worth keeping: …".
const LABEL = /^(?:[\p{L}'’]+\s){0,3}[\p{L}'’]+:\s+/u;

// A number followed by the unit or the things it counts, not by a stopword (a range "from 4 to 9").
function hasValueWithUnit(text: string, matcher: PatternMatcher): boolean {
  const stopwords = new Set(matcher.pack.stopword ?? []);
  for (const match of text.replace(CODE_REFERENCE, ' ').matchAll(VALUES)) {
    const unit = (match[1] ?? '').toLowerCase();
    if (unit === '%' || !stopwords.has(unit)) return true;
  }
  return false;
}

function afterLabel(text: string): string {
  return text.replace(LABEL, '');
}
