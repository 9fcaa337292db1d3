import { createMemoryStorage } from '../../src/index.js';
import { describeStorageContract } from '../../src/testing/index.js';

describeStorageContract({ name: 'memory', create: () => createMemoryStorage({ versions: 3 }), versions: 3 });
