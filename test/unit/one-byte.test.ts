import { describe, expect, it } from 'vitest';
import { hasWideCharacter, oneByteCopy } from '../../src/tokens/one-byte.js';

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

describe('hasWideCharacter()', () => {
  it('tells texts with a character above U+00FF from those without', () => {
    const texts = ['plain', 'naïve café ÿ', 'dash — here', 'last char Ā', '\u0100', '😀'];
    expect(texts.map((text) => hasWideCharacter(text))).toEqual([false, false, true, true, true, true]);
  });
});
