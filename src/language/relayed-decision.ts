// A user often passes on a call made elsewhere: "the team agreed to standardise on winston for
// logging", "my lead wants the payload format kept", "per the review, we keep protobuf", "we talked
// it over and everyone agreed: pino for all logging". The lead names who decided (a party, not the
// speaker) or where it was decided; what follows is the decision. The lead's own words ("agreed",
// "standup") are no small talk then, and what follows needs no choice wording of its own.

/**
 * What a relayed decision decides: the words after a lead that names another party's call ("the
 * team agreed to …", "my lead wants …", "security decided that …", "Priya from platform says …",
 * "everyone agreed: …") or the place it was made ("per the review, …", "after the design review
 * …", "as agreed in the sync, …"). Undefined when the sentence relays nothing, or relays a wish to
 * know or to meet ("my lead wants to know when it ships", "the team agreed to meet on Friday" are
 * asked for what follows).
 */
export function relayedDecisionOf(text: string): string | undefined {
  const plain = text.trim();
  const match = PARTY_CALL.exec(plain) ?? PLACE_CALL.exec(plain);
  if (match === null) return undefined;
  const decided = plain.slice(match.index + match[0].length).trim();
  if (decided.length === 0 || NOT_A_CALL.test(decided)) return undefined;
  return decided;
}

/**
 * Whether a sentence passes on another party's wish to know or to meet rather than a call ("my
 * lead wants to know when the export ships", "the team asked to talk about it on Monday").
 */
export function isRelayedWish(text: string): boolean {
  const match = PARTY_CALL.exec(text.trim());
  if (match === null) return false;
  return NOT_A_CALL.test(text.trim().slice(match.index + match[0].length).trim());
}

// --- Internal helpers ---

// Who makes a call: a group or a role ("the team", "my lead", "our architect", "security"), everyone,
// or a person named with their team ("Priya from platform").
const PARTY = String.raw`(?:(?:[Tt]he|[Oo]ur|[Mm]y)\s+(?:[\p{Ll}-]+\s+)?(?:team|teams|lead|leads|manager|boss|architect|architects|reviewer|reviewers|cto|CTO|pm|PM|owner|owners|client|customer|stakeholders|folks|people|guild|chapter|group|board|committee|council|panel)|[Ee]veryone|[Ee]verybody|[Ww]e all|[Aa]ll of us|[Ss]ecurity|[Ll]egal|[Cc]ompliance|[Pp]roduct|[Oo]ps|\p{Lu}\p{Ll}+\s+(?:from|on|in)\s+(?:the\s+)?[\p{Ll}-]+(?:\s+team)?)`;
// The verb that reports the call, and what may link it to its content.
const CALL = String.raw`(?:agreed|decided|wants|want|wanted|would like|asked for|asked us to|asked that|insists|insisted|says|said|prefers|requires|required|requested|signed off|voted|settled|chose|picked|mandated|ruled|confirmed|reversed (?:it|that|course|the call)|overruled (?:it|that|us))(?:\s+(?:on|for|that|to|with))?\s*[:,]?`;
// At the start of the sentence, or after a clause that leads up to it ("we talked it over and …").
const PARTY_CALL = new RegExp(String.raw`(?:^|\band\s+|[,;:]\s+)${PARTY}\s+(?:(?:has|have|had|finally|all|now|just)\s+)?${CALL}\s+`, 'u');
// Where the call was made: "per the review,", "after the design review", "as agreed in the sync,",
// "verdict from the arch review:".
const PLACE_CALL = /^(?:per|according to|after|following|as (?:agreed|decided) (?:in|at|with|by)|(?:the\s+)?(?:verdict|outcome|conclusion|decision|result|takeaway)s?\s+(?:from|of))\s+(?:the\s+|our\s+|my\s+|today['’]s\s+|yesterday['’]s\s+)?(?:[\p{L}-]+\s+){0,2}?(?:review|reviews|meeting|call|discussion|standup|stand-up|sync|retro|rfc|adr|lead|team|architect|decision)[,:]?\s+/iu;
// A wish to know or to meet is no call about the work, nor is a report of how something went.
const NOT_A_CALL = /^(?:to\s+)?(?:know|hear|check in|talk|chat|meet|discuss|sync|catch up|understand|ask)\b|^(?:when|whether|if|why|how|what|where|who)\b|^(?:me|you|us)\s+to\s+(?:know|talk|meet|join|chat)\b|^(?:that\s+)?(?:the|a|an|it|this|that|they|he|she)\b(?:\s+[\p{L}-]+){0,3}?\s+(?:was|were|went|ran|looked|seemed|felt|got|did|had)\b|\?\s*$/iu;
