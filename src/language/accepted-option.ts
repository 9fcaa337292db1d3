// The user taking up an option that was put to them, with the option restated: "let's take your
// second suggestion, a queue per tenant", "a nightly rollup table sounds right, do that", "ok, a
// materialized view it is". The restated option is what was decided; without one ("sounds good,
// do that") the sentence is an acknowledgement.

/**
 * Tells whether a user's sentence accepts an option and restates it: an acceptance of "your
 * (first|second|…) suggestion/option/proposal/idea" followed by the option, the option followed by
 * a verdict and a go-ahead ("… sounds right, do that"), or the option closed by "it is". The caller asks for the option to have substance (two topic words).
 */
export function isAcceptedOption(sentence: string): boolean {
  const text = sentence.replace(/\s+/gu, ' ').trim();
  if (/\?\s*$/u.test(text)) return false;
  return TAKEN_PROPOSAL.test(text) || APPROVED_OPTION.test(text) || AGREED_OPTION.test(text);
}

const ORDINAL = '(?:first|second|third|fourth|last|other|latter|former|\\d(?:st|nd|rd|th)?)';
const PROPOSAL = '(?:suggestions?|options?|proposals?|ideas?|approach|alternative|variant)';
// "let's take your first suggestion, a materialized view", "going with the second option: …".
const TAKEN_PROPOSAL = new RegExp(
  `\\b(?:take|taking|took|go with|going with|pick|picking|accept|accepting)\\s+(?:your|the)\\s+${ORDINAL}\\s+${PROPOSAL}\\s*[,:—–-]\\s*\\S+\\s+\\S+`,
  'iu',
);
// "a nightly rollup table sounds right, do that": the option, a verdict, a go-ahead.
const APPROVED_OPTION = /^(?:(?:ok(?:ay)?|so|yes|yeah|yep)[,]?\s+)?(?:a|an|the)\s+\S+(?:\s+\S+){1,5}\s+(?:sounds|seems|looks)\s+(?:right|good|great|fine|best)[,;]?\s+(?:do|go with|let['’]s do)\s+(?:that|it|this)\b/iu;
// "ok, a materialized view it is": agreement (often left out), the option, "it is".
const AGREED_OPTION = /^(?:(?:ok(?:ay)?|agreed|fine|sure|alright|yes|yeah|yep)\b[,!.]?\s+)?(?:a|an|the)\s+\S+(?:\s+\S+){1,5}\s+it\s+is\b/iu;
