import { describe, expect, it } from 'vitest';
import { createTokenCounter, encodingForModel } from '../../src/index.js';

describe('createTokenCounter()', () => {
  it('uses o200k by default and cl100k for older models', () => {
    expect(createTokenCounter().name).toBe('o200k_base');
    expect(createTokenCounter({ model: 'gpt-4' }).name).toBe('cl100k_base');
    expect(createTokenCounter({ model: 'gpt-4o-mini' }).name).toBe('o200k_base');
    expect(encodingForModel('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingForModel('claude-sonnet-4')).toBe('o200k_base');
  });

  it('counts special-token strings as plain text instead of throwing', () => {
    const counter = createTokenCounter();
    expect(counter.count('<|endoftext|>')).toBeGreaterThan(1);
    expect(createTokenCounter({ model: 'gpt-4' }).count('x <|im_start|> y')).toBeGreaterThan(3);
  });

  it('counts the empty string as zero and ordinary text exactly', () => {
    const counter = createTokenCounter();
    expect(counter.count('')).toBe(0);
    expect(counter.count('hello world')).toBe(2);
  });

  it('counts a 1 MB run without whitespace (in slices, never fewer tokens than characters / 16)', () => {
    const counter = createTokenCounter();
    const count = counter.count('x'.repeat(1_000_000));
    expect(count).toBeGreaterThanOrEqual(1_000_000 / 16);
    expect(count).toBeLessThanOrEqual(1_000_000);
  });
});
