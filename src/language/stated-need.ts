// Needs stated as a binding modal on a thing ("the export has to support 50k rows"), told apart
// from the speakers' own chores ("I have to restart it").

/**
 * Whether a sentence puts a binding modal on a thing, not on the speakers: "failed jobs have to be
 * re-queued", "the export needs to support 50k rows". "I have to restart it every time" is the
 * speaker's chore and "the old code had to …" tells the past.
 */
export function isStatedNeed(sentence: string): boolean {
  const modal = NEED_MODAL.exec(sentence);
  if (modal === null) return false;
  return !SPEAKER_SUBJECT.test(sentence.slice(0, modal.index));
}

/**
 * Whether a stated need is measured by a value after its modal: "the export has to support 50k
 * rows", "search must answer within 300 ms", "the importer needs to ship by 12 March". What it
 * states holds after the work that mentions it is done. Questions are no needs.
 */
export function isMeasuredNeed(sentence: string): boolean {
  if (/\?\s*["')\]]*\s*$/u.test(sentence)) return false;
  const modal = NEED_MODAL.exec(sentence);
  return modal !== null && isStatedNeed(sentence) && /\d/u.test(sentence.slice(modal.index).replace(/`[^`]*`/gu, ' '));
}

// --- Internal helpers ---

// A binding modal: what a thing must do or be.
const NEED_MODAL = /\b(?:must|has to|have to|needs? to|(?:is|are) required to|should be able to)\b/iu;
// The speakers as the subject before a modal: "I have to …", "we really need to …".
const SPEAKER_SUBJECT = /(?:^|[,;:]\s*|\b(?:and|so|but|then)\s+)(?:i|we|you|they)(?:['’](?:ll|d))?(?:\s+(?:also|still|just|really|first|now|probably|definitely|will|would))*\s*$/iu;
