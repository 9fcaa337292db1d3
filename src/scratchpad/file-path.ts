/**
 * Normalises a file path so that one file has one spelling: backslashes become `/`, repeated
 * slashes collapse (a leading `//` of a network path is kept), `.` segments and a trailing slash
 * are dropped. `..` is kept: resolving it could change which file is meant. Letter case is kept;
 * {@link filePathKey} folds it when paths are case-insensitive.
 *
 * @example
 * ```ts
 * normalizeFilePath('C:\\x\\a.ts'); // 'C:/x/a.ts'
 * normalizeFilePath('./src//a.ts'); // 'src/a.ts'
 * ```
 */
export function normalizeFilePath(path: string): string {
  const slashed = path.replaceAll('\\', '/');
  if (!NEEDS_WORK.test(slashed)) return slashed;
  const prefix = slashed.startsWith('//') ? '//' : slashed.startsWith('/') ? '/' : '';
  const segments = slashed.split('/').filter((segment) => segment !== '' && segment !== '.');
  const joined = segments.join('/');
  // `C:/` is the root of drive C; `C:` alone means its current folder.
  if (prefix === '' && DRIVE.test(joined) && /^[A-Za-z]:\//.test(slashed)) return `${joined}/`;
  if (joined === '') return prefix === '' ? '.' : prefix;
  return prefix + joined;
}

/** The identity of a normalised path: itself, or lower-cased when paths are case-insensitive. */
export function filePathKey(path: string, options: { isCaseInsensitive: boolean }): string {
  const normalized = normalizeFilePath(path);
  return options.isCaseInsensitive ? normalized.toLowerCase() : normalized;
}

// --- Internal helpers ---

// Only paths with `//`, a `.` segment or a trailing slash need splitting: the common case is a
// single test.
const NEEDS_WORK = /\/\/|(?:^|\/)\.(?:\/|$)|\/$/;
const DRIVE = /^[A-Za-z]:$/;
