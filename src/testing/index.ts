export { arbitraries, applyOperations } from './arbitraries.js';
export type { OperationArbitraryOptions, OperationModel, SessionOperation } from './arbitraries.js';
export { assertInvariants } from './invariants.js';
export { assertProviderValid, findProviderProblems } from './provider-validity.js';
export type { InvariantOptions } from './invariants.js';
export { MOCK_SUMMARIZER_FAILURES, createMockSummarizer } from './mocks.js';
export type { MockSummarizer, MockSummarizerBehavior, MockSummarizerFailure } from './mocks.js';
export { describeStorageContract } from './storage-contract.js';
export type { StorageContractOptions } from './storage-contract.js';
