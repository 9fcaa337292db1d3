import { describe, expect, it } from 'vitest';
import { bytesFor, hasWideCharacter, MAX_KEPT_BYTES, oneByteCopy, releaseLargeBuffer } from '../../src/tokens/one-byte.js';

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

describe('releaseLargeBuffer()', () => {
  it('lets go of a buffer a huge text grew once a text of ordinary size comes, and keeps an ordinary one', () => {
    expect(bytesFor(MAX_KEPT_BYTES * 2).length).toBeGreaterThanOrEqual(MAX_KEPT_BYTES * 2);
    releaseLargeBuffer(MAX_KEPT_BYTES + 1);
    expect(bytesFor(1).length).toBeGreaterThanOrEqual(MAX_KEPT_BYTES * 2);
    releaseLargeBuffer(500);
    const ordinary = bytesFor(1);
    expect(ordinary.length).toBeLessThanOrEqual(MAX_KEPT_BYTES);
    releaseLargeBuffer(500);
    expect(bytesFor(1)).toBe(ordinary);
    // A copy made after the release is still exact.
    expect(oneByteCopy('café — no, café only'.slice(0, 4))).toBe('café');
  });
});
