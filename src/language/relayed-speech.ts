/** What a tool result relays from the user, for {@link relayedUserSpeech}. */
export interface RelayedSpeech {
  /** The user's own words found in the result (feedback on a denied call, a reply, an answer). */
  readonly text: string;
  /** The user's answers to questions the agent asked through a tool: question and chosen answer. */
  readonly answers: readonly { readonly question: string; readonly answer: string }[];
}

/**
 * Finds what the user said inside a tool result. Coding agents relay the user through their tools:
 * a reply or feedback wrapped in a tag (`<user_message>`, `<feedback>`, `<answer>`), or the
 * answers picked for a question tool, listed as `"question?"="answer"`. Those words are the
 * user's, and as durable as anything the user types: the extractive summarizer reads them as user
 * speech.
 */
export function relayedUserSpeech(output: string): RelayedSpeech {
  const parts: string[] = [];
  for (const match of output.matchAll(TAGGED)) {
    const text = (match[2] ?? '').trim();
    if (text.length > 0) parts.push(text);
  }
  const answers: { question: string; answer: string }[] = [];
  for (const match of output.matchAll(ANSWERED)) {
    const question = unescape(match[1] ?? '').trim();
    const answer = unescape(match[2] ?? '').trim();
    if (question.length > 0 && answer.length > 0 && answer.length <= MAX_ANSWER_LENGTH) answers.push({ question, answer });
  }
  return { text: parts.join('\n\n'), answers };
}

// --- Internal helpers ---

// The tags agents wrap the user's words in; the content is taken up to the matching closing tag.
const TAGGED = /<(user_message|feedback|answer|user_feedback)>([\s\S]*?)<\/\1>/gu;
// A question the agent asked (ends in "?") and the answer picked: "Proceed?"="Yes, go ahead".
const ANSWERED = /"((?:[^"\\\n]|\\.){3,400}\?)"\s*=\s*"((?:[^"\\\n]|\\.){1,400})"/gu;
const MAX_ANSWER_LENGTH = 300;

function unescape(text: string): string {
  return text.replace(/\\(["\\])/gu, '$1');
}
