// A choice settled by how a comparison or a check came out, either speaker: "benchmarked both:
// undici wins, switching the client to it", "ky came out ahead, so that's the HTTP client now",
// "pnpm installs in half the time, so pnpm it is", "Postgres search was good enough in the
// spike, so no Elasticsearch". The verdict alone ("undici is faster") is an observation and the
// settlement alone ("switching to it") leans on what came before; together they decide.

/**
 * Tells whether a sentence settles a choice on a verdict: a clause that says how an option did
 * against another (wins, came out ahead, was faster or good enough, beat …), then — after ", so",
 * a semicolon, a dash or a colon — the choice that follows from it ("so that's the client now",
 * "we're adopting it", "X it is", "no Y", "switching to it", "it stays"); or a condition put on
 * the choice and the report that it was met ("… unless p99 held under 80 ms; it held, so the
 * cache stays"). Questions, plans still open ("if it wins we'll switch") and a verdict with no
 * choice after it are not.
 */
export function isSettledChoice(sentence: string): boolean {
  const text = sentence.replace(/`[^`\n]*`/gu, 'code').replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || /\?\s*["')\]]*$/u.test(text)) return false;
  // "if p95 stays below 200 ms we keep it; it did, so it stays": the condition, then that it was met.
  const met = CONDITION_MET.exec(text);
  if (met !== null) return SETTLEMENT.test(text.slice(met.index + met[0].length)) || NO_ALTERNATIVE.test(text.slice(met.index + met[0].length));
  if (OPEN_CONDITION.test(text)) return false;
  for (const match of text.matchAll(BREAKS)) {
    const verdict = text.slice(0, match.index);
    const settlement = text.slice(match.index + match[0].length);
    if (VERDICT.test(verdict) && (SETTLEMENT.test(settlement) || NO_ALTERNATIVE.test(settlement))) return true;
  }
  return false;
}

// Where the verdict ends and the choice begins: ", so", ", we …", ";", a dash, a colon, ", which means".
const BREAKS = /,?\s+so\s+|,\s+(?=(?:I|we)\b)|;\s+|\s+[-—–]{1,2}\s+|:\s+|,\s+(?:which means|meaning|hence)\s+/gu;
// How an option did against another, or against the bar set for it ("wins", "was fast enough",
// "produced the smaller diff").
const VERDICT = /\b(?:wins?|won(?!['’])|came out (?:ahead|on top|faster|better|cheaper|smaller)|comes out (?:ahead|on top)|beats?|outperform(?:s|ed)?|(?:was|were|is|are|ran|runs|came in|felt)\s+(?:\p{L}+\s+){0,2}?(?:faster|quicker|smaller|lighter|cheaper|simpler|clearer|better|good enough|fast enough|small enough|the (?:fastest|smallest|clear winner|winner))|in (?:half|a third|a fraction) (?:of )?the time|\d+(?:\.\d+)?\s?x (?:faster|smaller|cheaper)|(?:twice|three times|\d+(?:\.\d+)?\s?(?:x|times)|half) as (?:fast|quick|small|large|cheap|big|slow|much|many)|(?:produced|produces|gave|gives|had|has|showed|shows|made|makes)\s+(?:the\s+|a\s+)?(?:smaller|smallest|fewer|fewest|lower|lowest|higher|highest|better|best|faster|fastest|cleaner|cleanest|simpler|simplest|shorter|shortest|least|most)\b)\b/iu;
// The choice that follows, said as settled: "that's the client now", "X it is", "we're adopting
// it", "switching the client to it", "it stays", "we go with X".
const SETTLEMENT = /^(?:(?:so|then|and)\s+)?(?:(?:that|it)(?:['’]s| is) (?:the|our|what we)\b|this is (?:the|our)\b|\S+(?:\s\S+)?\s+it is\b|(?:I|we)(?:['’]re|['’]m| am| are)?\s+(?:now\s+)?(?:adopting|adopt|going with|go with|switching|switch|moving|move|keeping|keep|sticking with|stick with|using|use|picking|pick|standardi[sz]ing)\b|(?:switching|moving|migrating|going with|adopting|keeping|sticking with|standardi[sz]ing on)\b|(?:it|they|the [\p{L}-]+)\s+(?:stays?|remains?|goes|is (?:staying|in|out))\b|(?:\S+\s+){0,3}(?:becomes|is now|are now)\s+(?:the|our)\b)/iu;
// The alternative ruled out, by its name: "so no Elasticsearch", "so no more `moment`".
const NO_ALTERNATIVE = /^(?:(?:so|then|and)\s+)?[Nn]o(?:\s+more)?\s+(?:\p{Lu}|code\b)[\p{L}\p{N}.-]*(?:\s+\p{L}+)?\s*[.!]?$/u;
// A condition, then the report that it was met and the ", so" that settles the choice.
const CONDITION_MET = /^(?:if|as long as|provided|unless)\b[^;—–]*?(?:;|\s[-—–]{1,2})\s+(?:and\s+)?(?:it|they|that|p\d+|the [\p{L}\p{N}-]+)\s+(?:did|does|do|held|holds|was|were|is|are|stayed|stays)\b[^;—–]*?,?\s+so\s+/iu;
// A choice still waiting on the verdict: "if it wins we'll switch", "once it's faster, …".
const OPEN_CONDITION = /^(?:if|once|when|unless|whether)\b(?![^;—–-]*[;—–-]\s*(?:it|they)\s+(?:did|does|do|was|were|held|holds|is|are)\b)/iu;
