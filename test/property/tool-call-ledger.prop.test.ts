import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallLedger } from '../../src/tool-calls.js';
import type { ToolCallRecord } from '../../src/tool-calls.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Operations on a ledger: a message with calls (ids from a small set, so that ids repeat and get
// reused), a result, or a call closed without one. Invalid ones (a pending id called again, a
// result for nothing) are skipped by both sides alike.
const id = fc.constantFrom('call-1', 'call-2', 'call-3', 'toolu_a', 'toolu_b');
const operation = fc.oneof(
  fc.record({ type: fc.constant('message' as const), ids: fc.uniqueArray(id, { maxLength: 3 }) }),
  fc.record({ type: fc.constant('result' as const), id }),
  fc.record({ type: fc.constant('orphan' as const), id }),
);

// Records as a snapshot gives them back: the schema's key order, optional seqs present or not.
const status = fc.constantFrom<ToolCallRecord['status']>('pending', 'answered', 'orphaned', 'late');
const initialRecord = fc.record(
  { id, name: fc.constantFrom('read_file', 'bash'), seq: fc.nat({ max: 50 }), status, messagesAfter: fc.nat({ max: 3 }), resultSeq: fc.nat({ max: 60 }), orphanSeq: fc.nat({ max: 60 }) },
  { requiredKeys: ['id', 'name', 'seq', 'status', 'messagesAfter'] },
);
const initial = fc.uniqueArray(initialRecord, { selector: (record) => record.id, maxLength: 4 });

describe('the tool-call ledger', () => {
  it('keeps the records a ledger changing them by object spread keeps, keys in the same order', () => {
    fc.assert(
      fc.property(initial, fc.array(operation, { maxLength: 30 }), (records, operations) => {
        const ledger = createToolCallLedger({ initial: records });
        const reference = referenceLedger(records);
        operations.forEach((step, index) => {
          const seq = index + 100;
          if (step.type === 'message') {
            const calls = step.ids.map((callId) => ({ id: callId, name: 'read_file', input: {} }));
            if (!isAccepted(() => ledger.checkCalls(calls))) return;
            ledger.addMessage({ calls, seq });
            reference.message(step.ids, seq);
          } else if (step.type === 'result') {
            if (!isAccepted(() => ledger.resolveResult(step.id))) return;
            ledger.answer({ id: step.id, seq });
            reference.answer(step.id, seq);
          } else {
            const pending = ledger.pending().find((record) => record.id === step.id);
            if (pending === undefined) return;
            ledger.orphan({ id: step.id, seq });
            reference.orphan(step.id, seq);
          }
          expect(JSON.stringify(ledger.toJSON())).toBe(JSON.stringify(reference.records()));
        });
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

// --- Internal helpers ---

function isAccepted(check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch {
    return false;
  }
}

// The ledger's record keeping as it was written first: every change a spread of the record.
function referenceLedger(initialRecords: readonly ToolCallRecord[]): { message(ids: readonly string[], seq: number): void; answer(id: string, seq: number): void; orphan(id: string, seq: number): void; records(): ToolCallRecord[] } {
  const records = new Map<string, ToolCallRecord>(initialRecords.map((record) => [record.id, record]));
  const pending = new Set(initialRecords.filter((record) => record.status === 'pending').map((record) => record.id));
  return {
    message(ids, seq) {
      for (const callId of pending) {
        const record = records.get(callId) as ToolCallRecord;
        records.set(callId, { ...record, messagesAfter: record.messagesAfter + 1 });
      }
      for (const callId of ids) {
        records.delete(callId);
        records.set(callId, { id: callId, name: 'read_file', seq, status: 'pending', messagesAfter: 0 });
        pending.add(callId);
      }
    },
    answer(callId, seq) {
      const record = records.get(callId) as ToolCallRecord;
      records.set(callId, { ...record, status: record.status === 'orphaned' ? 'late' : 'answered', resultSeq: seq });
      pending.delete(callId);
    },
    orphan(callId, seq) {
      const record = records.get(callId) as ToolCallRecord;
      records.set(callId, { ...record, status: 'orphaned', orphanSeq: seq });
      pending.delete(callId);
    },
    records: () => [...records.values()],
  };
}
