/**
 * One entry of a session's secret ledger: which placeholder a secret was given, identified by a
 * digest of the secret, never the secret itself. Recorded with the event that first carried the
 * secret, so the same secret gets the same placeholder after `save()` and `load()`.
 */
export interface SecretRecord {
  /** 32-bit FNV-1a digest of the secret, as 8 hex digits: enough to recognise it, too short to recover it. */
  readonly digest: string;
  /** The kind the secret was first detected as, e.g. `"aws-key"`. */
  readonly kind: string;
  /** Its number among the secrets of that kind, from 1: the `1` in `[secret:aws-key#1]`. */
  readonly number: number;
}

/**
 * Placeholders given so far in a session, by digest. Part of the session view, so a fold of the
 * log rebuilds it. @internal
 */
export interface SecretLedger {
  /** The placeholder of the secret with this digest, or `undefined` when it was never seen. */
  placeholderOf(digest: string): string | undefined;
  /** The number the next new secret of `kind` gets. */
  nextNumber(kind: string): number;
  /** Adds records (a record for a digest already known is ignored: the first wins). */
  add(records: readonly SecretRecord[]): void;
  /** Number of secrets known. */
  readonly size: number;
  /** The records, in the order they were added. */
  toJSON(): SecretRecord[];
}

/** Creates a {@link SecretLedger}, empty or from saved records. @internal */
export function createSecretLedger(initial: readonly SecretRecord[] = []): SecretLedger {
  const byDigest = new Map<string, SecretRecord>();
  const highest = new Map<string, number>();
  const add = (records: readonly SecretRecord[]): void => {
    for (const record of records) {
      if (byDigest.has(record.digest)) continue;
      byDigest.set(record.digest, Object.freeze({ digest: record.digest, kind: record.kind, number: record.number }));
      highest.set(record.kind, Math.max(highest.get(record.kind) ?? 0, record.number));
    }
  };
  add(initial);
  return {
    placeholderOf(digest) {
      const record = byDigest.get(digest);
      return record === undefined ? undefined : secretPlaceholder(record.kind, record.number);
    },
    nextNumber: (kind) => (highest.get(kind) ?? 0) + 1,
    add,
    get size() {
      return byDigest.size;
    },
    toJSON: () => [...byDigest.values()],
  };
}

/** Renders the placeholder that stands for a secret in recorded text: `[secret:aws-key#1]`. */
export function secretPlaceholder(kind: string, number: number): string {
  return `[secret:${kind}#${number}]`;
}

/**
 * 32-bit FNV-1a digest of `secret` over its UTF-16 code units, as 8 hex digits. It identifies a
 * secret within a session; it is deliberately short, so it cannot be turned back into the secret
 * (billions of strings share each digest). @internal
 */
export function secretDigest(secret: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < secret.length; index += 1) {
    hash ^= secret.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
