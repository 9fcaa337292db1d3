import { z } from 'zod';
import { CorruptStateError } from './errors.js';
import type { ProjectMemory } from './options.js';
import { sessionIdSchema } from './options.js';
import type { Storage } from './storage/storage.js';
import { parse } from './validation.js';

/**
 * Keeps a project's memory (facts with their history, and pins) in a `Storage`, under the id
 * `project.<projectId>`, so that the next session of the project can start with it. Every save is
 * a new version; the newest one is loaded.
 * @throws {InvalidArgumentError} when the project id or the memory is invalid.
 */
export async function saveProjectMemory(options: { storage: Storage; projectId: string; memory: ProjectMemory }): Promise<void> {
  const parsed = parse(saveSchema, options, 'saveProjectMemory', "saveProjectMemory({ storage, projectId: 'checkout', memory: manager.projectMemory() })");
  await parsed.storage.saveSnapshot(`project.${parsed.projectId}`, { formatVersion: 1, seq: 0, state: parsed.memory });
}

/**
 * Loads the newest memory saved for a project, or `undefined` when there is none. Pass it as the
 * `projectMemory` option of a new `ContextManager`.
 * @throws {CorruptStateError} when the stored memory has the wrong shape.
 */
export async function loadProjectMemory(options: { storage: Storage; projectId: string }): Promise<ProjectMemory | undefined> {
  const parsed = parse(loadSchema, options, 'loadProjectMemory', "loadProjectMemory({ storage, projectId: 'checkout' })");
  const snapshot = await parsed.storage.loadSnapshot(`project.${parsed.projectId}`);
  if (snapshot === null) return undefined;
  const memory = memorySchema.safeParse(snapshot.state);
  if (!memory.success) {
    throw new CorruptStateError({
      version: snapshot.formatVersion,
      message: `loadProjectMemory(): the memory of project "${parsed.projectId}" in storage "${parsed.storage.name}" has the wrong shape:\n${z.prettifyError(memory.error)}\nSave it again with saveProjectMemory().`,
      cause: memory.error,
    });
  }
  return memory.data as unknown as ProjectMemory;
}

// --- Internal helpers ---

const storageSchema = z.custom<Storage>(
  (value) => typeof value === 'object' && value !== null && typeof (value as { saveSnapshot?: unknown }).saveSnapshot === 'function',
  'expected a Storage (createMemoryStorage() or createFileStorage())',
);
const memorySchema = z.object({ formatVersion: z.literal(1), facts: z.array(z.object({ key: z.string(), value: z.string() }).passthrough()), pins: z.array(z.string()) });
const saveSchema = z.strictObject({ storage: storageSchema, projectId: sessionIdSchema, memory: memorySchema });
const loadSchema = z.strictObject({ storage: storageSchema, projectId: sessionIdSchema });
