/** Words of a text, as pieces between whitespace. */
export function wordCount(text: string): number {
  return text.split(/\s+/u).filter((word) => word.length > 0).length;
}

/** Runs of letters in a text: words without numbers, code punctuation or contractions' tails counted apart. */
export function letterRunCount(text: string): number {
  return text.match(/\p{L}+/gu)?.length ?? 0;
}

/**
 * Tells whether a string reads as prose written to a person (sentences, perhaps around code
 * blocks) rather than code, a path or data. Agents also talk through tools: a plan, a question or
 * a completion report in a call's input is prose, and is read and shown as such.
 */
export function isProse(fullText: string): boolean {
  // A plan or report may embed code blocks: judge the words around them.
  const text = fullText.replace(/^\s{0,3}(```|~~~)[^\n]*\n[\s\S]*?^\s{0,3}\1[^\n]*$/gmu, ' ').replace(/`[^`\n]*`/gu, 'code');
  if (text.length < 40) return false;
  const words = text.match(/\p{L}{2,}/gu)?.length ?? 0;
  const code = text.match(/[{};=<>()[\]]/gu)?.length ?? 0;
  return words >= 8 && code / text.length < 0.02 && /[.!?:](?:\s|$)/u.test(text);
}
