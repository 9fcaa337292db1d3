// Some agent loops hand the assistant's answer on to the next model as the user's turn (an
// architect model's plan sent, word for word, to an editor model). Those words are still the
// assistant's: its plans and guesses are not the user's requirements. The check reads the entries
// still in T0, so a session restored from a snapshot decides it the same way.

import type { Entry } from '../types.js';

/**
 * Tells whether a user message repeats, spacing aside, one of the assistant's latest long
 * messages in `entries` (T0, oldest first). A short message ("ok", "yes") repeated is no relay.
 */
export function isRelayedAnswer(text: string, entries: readonly Entry[]): boolean {
  if (text.length < MIN_RELAYED_CHARS) return false;
  const spoken = collapse(text);
  if (spoken.length < MIN_RELAYED_CHARS) return false;
  const opening = spoken.slice(0, OPENING_CHARS);
  let looked = 0;
  for (let index = entries.length - 1; index >= 0 && looked < LOOK_BACK; index -= 1) {
    const entry = entries[index] as Entry;
    if (entry.kind !== 'assistant') continue;
    looked += 1;
    if (entry.text.length < MIN_RELAYED_CHARS || !collapse(entry.text.slice(0, OPENING_CHARS * 4)).startsWith(opening)) continue;
    if (collapse(entry.text) === spoken) return true;
  }
  return false;
}

// --- Internal helpers ---

/** Shortest message whose repetition is read as a relayed answer. */
const MIN_RELAYED_CHARS = 200;
/** The assistant's latest messages a relay is looked for in. */
const LOOK_BACK = 8;
/** Characters compared before whole texts are. */
const OPENING_CHARS = 64;

function collapse(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}
