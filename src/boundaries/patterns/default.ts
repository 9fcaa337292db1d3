import type { PatternPack } from '../pattern-pack.js';
import { mergePatternPacks } from '../pattern-pack.js';
import { englishPatterns } from './en.js';
import { vietnamesePatterns } from './vi.js';

/**
 * The patterns used when none are given: the English and Vietnamese packs merged. Pass your own
 * `patterns` (e.g. `mergePatternPacks(defaultPatterns, myPack)`) to extend them; a pack you pass
 * replaces this default rather than adding to it.
 */
export const defaultPatterns: PatternPack = mergePatternPacks(englishPatterns, vietnamesePatterns);
