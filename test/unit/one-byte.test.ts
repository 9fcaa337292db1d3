import { describe, expect, it } from 'vitest';
import { hasWideCharacter, isWideText, oneByteCopy } from '../../src/tokens/one-byte.js';

describe('oneByteCopy()', () => {
  it('copies texts below U+0100 exactly, accents and the no-break space included', () => {
    for (const text of ['', 'plain ASCII\n\tline', 'café naïve ÿ ª ² \u00a0 ©', 'x'.repeat(5_000)]) expect(oneByteCopy(text)).toBe(text);
    // Cut out of a text with a wide character, the slice is still equal once copied.
    const wide = `const title = 'naïve';\n// — a dash\n`;
    expect(oneByteCopy(wide.slice(0, 23))).toBe("const title = 'naïve';\n");
  });

  it('refuses texts with a character above U+00FF or a C1 control', () => {
    for (const text of ['a — b', 'arrow →', '日本', '😀', 'nel \u0085', 'c1 \u009f', 'c1 \u0080']) expect(oneByteCopy(text)).toBeUndefined();
  });
});

describe('hasWideCharacter() / isWideText()', () => {
  it('tells texts with a character above U+00FF from those without, remembering two texts', () => {
    const texts = ['plain', 'naïve café ÿ', 'dash — here', 'last char Ā', '\u0100'];
    const expected = [false, false, true, true, true];
    expect(texts.map((text) => hasWideCharacter(text))).toEqual(expected);
    // Asked in turns, as an edited block is counted from both versions.
    for (let round = 0; round < 2; round += 1) expect(texts.map((text) => isWideText(text))).toEqual(expected);
    expect([isWideText('dash — here'), isWideText('plain'), isWideText('dash — here'), isWideText('plain')]).toEqual([true, false, true, false]);
  });
});
