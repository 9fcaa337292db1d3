import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage } from '../../src/storage/fs/index.js';
import { bundleFileStorage, startChild, writeChildScript } from './fs-processes.js';
import type { LineChild } from './fs-processes.js';

// A writer process driven over stdin. Every reply is one line; errors are reported by their code.
const CHILD = `
import { createInterface } from 'node:readline';
import { createFileStorage } from './fs.mjs';
const [directory, writer, versions] = process.argv.slice(2);
const storage = createFileStorage({ directory, versions: Number(versions ?? 5) });
const reply = (line) => process.stdout.write(line + '\\n');
const codeOf = (error) => (typeof error?.code === 'string' ? error.code : 'ERROR ' + String(error?.message ?? error).replace(/\\n/g, ' '));
const message = (seq, content) => ({ type: 'message', seq, role: 'user', content });
async function lastSeqOf(sessionId) {
  const snapshot = await storage.loadSnapshot(sessionId);
  const events = await storage.read(sessionId, { afterSeq: snapshot?.seq ?? 0 });
  return { version: snapshot?.version ?? 0, seq: Math.max(snapshot?.seq ?? 0, events.at(-1)?.seq ?? 0) };
}
for await (const line of createInterface({ input: process.stdin })) {
  const [command, sessionId, ...rest] = line.split(' ');
  try {
    if (command === 'load') {
      const { version, seq } = await lastSeqOf(sessionId);
      reply('loaded ' + version + ' ' + seq);
    } else if (command === 'append') {
      await storage.append(sessionId, [message(Number(rest[0]), rest[1])]);
      reply('append ok');
    } else if (command === 'save') {
      const version = await storage.saveSnapshot(sessionId, { formatVersion: 1, seq: Number(rest[1]), state: { writer, seq: Number(rest[1]) } }, { expectedVersion: Number(rest[0]) });
      reply('save ' + version);
    } else if (command === 'burst') {
      // Records rest[0] events of its own into a shared session, re-reading after every conflict,
      // and saves every 5 events with the version it last saw.
      let { version, seq } = await lastSeqOf(sessionId);
      let conflicts = 0;
      for (let mine = 0; mine < Number(rest[0]); ) {
        try {
          await storage.append(sessionId, [message(seq + 1, writer + '-' + mine)]);
          seq += 1;
          mine += 1;
        } catch (error) {
          if (error?.code !== 'CONFLICT') throw error;
          conflicts += 1;
          ({ seq } = await lastSeqOf(sessionId));
          continue;
        }
        if (mine % 5 === 0) {
          try {
            version = await storage.saveSnapshot(sessionId, { formatVersion: 1, seq, state: { writer, seq } }, { expectedVersion: version });
          } catch (error) {
            if (error?.code !== 'CONFLICT') throw error;
            conflicts += 1;
            ({ version, seq } = await lastSeqOf(sessionId));
          }
        }
      }
      reply('burst done ' + conflicts);
    } else if (command === 'exit') {
      process.exit(0);
    }
  } catch (error) {
    reply(command + ' ' + codeOf(error));
  }
}
`;

let workspace: string;
let script: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mobius-two-'));
  await bundleFileStorage(workspace);
  script = await writeChildScript(workspace, 'writer-child.mjs', CHILD);
});

afterAll(async () => {
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
});

async function ask(children: readonly LineChild[], line: (child: number) => string): Promise<string[]> {
  children.forEach((child, index) => child.send(line(index)));
  return Promise.all(children.map(async (child) => (await child.next()) ?? `ended: ${child.stderr()}`));
}

describe('two processes writing one session', () => {
  it('lets exactly one writer win each round; the loser gets CONFLICT, re-applies and loses nothing', async () => {
    const directory = join(workspace, 'rounds');
    const writers = ['left', 'right'];
    const children = writers.map((writer) => startChild(script, [directory, writer, '1000']));
    const pending = writers.map(() => [] as string[]);
    const recorded = writers.map(() => 0);
    const saveWinners: string[] = [];
    try {
      for (let round = 0; round < 30; round += 1) {
        const loaded = await ask(children, () => 'load s1');
        expect(loaded[0]).toBe(loaded[1]);
        const [, versionText, seqText] = (loaded[0] ?? '').split(' ');
        const version = Number(versionText);
        const seq = Number(seqText);
        expect(version).toBe(round);
        // Each writer re-applies what it could not store before, then records one more event.
        writers.forEach((writer, index) => pending[index]?.push(`${writer}-${recorded[index]}`));
        writers.forEach((_, index) => (recorded[index] = (recorded[index] ?? 0) + 1));
        const appended = await ask(children, (index) => `append s1 ${seq + 1} ${pending[index]?.[0] ?? ''}`);
        expect([...appended].sort()).toEqual(['append CONFLICT', 'append ok']);
        pending[appended.indexOf('append ok')]?.shift();
        const saved = await ask(children, () => `save s1 ${version} ${seq + 1}`);
        expect([...saved].sort()).toEqual([`save ${version + 1}`, 'save CONFLICT']);
        saveWinners.push(writers[saved.indexOf(`save ${version + 1}`)] ?? '');
      }
      // Drain: each loser re-applies what is still pending, one at a time.
      for (const [index, child] of children.entries()) {
        for (const content of pending[index] ?? []) {
          child.send('load s1');
          const [, , seqText] = ((await child.next()) ?? '').split(' ');
          child.send(`append s1 ${Number(seqText) + 1} ${content}`);
          expect(await child.next()).toBe('append ok');
        }
      }
    } finally {
      children.forEach((child) => child.send('exit'));
      await Promise.all(children.map((child) => child.exited));
    }
    const storage = createFileStorage({ directory, versions: 1_000 });
    const events = await storage.read('s1', { afterSeq: 0 });
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: events.length }, (_, index) => index + 1));
    const contents = events.map((event) => (event.type === 'message' ? event.content : ''));
    const expected = writers.flatMap((writer, index) => Array.from({ length: recorded[index] ?? 0 }, (_, item) => `${writer}-${item}`));
    expect([...contents].sort()).toEqual([...expected].sort());
    // One version per round, each holding the state its round's winner saved.
    const versions = (await storage.listVersions?.('s1')) ?? [];
    expect(versions.map((info) => info.version)).toEqual(Array.from({ length: 30 }, (_, index) => 30 - index));
    for (const info of versions) {
      expect((await storage.loadSnapshot('s1', { version: info.version }))?.state).toMatchObject({ writer: saveWinners[info.version - 1] });
    }
  });

  it('keeps every event of two writers racing on the same session, with no duplicate or gap', async () => {
    const directory = join(workspace, 'burst');
    // Keeping many versions keeps journal-0, so that every event ever appended can be read back.
    const children = ['left', 'right'].map((writer) => startChild(script, [directory, writer, '1000']));
    let replies: string[];
    try {
      replies = await ask(children, () => 'burst s1 60');
    } finally {
      children.forEach((child) => child.send('exit'));
      await Promise.all(children.map((child) => child.exited));
    }
    for (const reply of replies) expect(reply).toMatch(/^burst done \d+$/);
    const storage = createFileStorage({ directory, versions: 1_000 });
    const events = await storage.read('s1', { afterSeq: 0 });
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 120 }, (_, index) => index + 1));
    const contents = events.map((event) => (event.type === 'message' ? event.content : ''));
    for (const writer of ['left', 'right']) {
      const mine = contents.filter((content) => content.startsWith(`${writer}-`)).map((content) => Number(content.split('-')[1]));
      expect(mine).toEqual(Array.from({ length: 60 }, (_, index) => index));
    }
    const versions = (await storage.listVersions?.('s1')) ?? [];
    expect(versions.map((info) => info.version)).toEqual(Array.from({ length: versions.length }, (_, index) => versions.length - index));
    const snapshot = await storage.loadSnapshot('s1');
    expect(snapshot?.seq).toBe(versions[0]?.seq);
    expect((await readdir(join(directory, 's1'))).filter((name) => name === 'lock' || name.includes('.tmp-'))).toEqual([]);
  });

  it('refuses path-traversal session ids in a child process without creating anything outside the folder', async () => {
    const directory = join(workspace, 'traversal', 'sessions');
    const child = startChild(script, [directory, 'evil']);
    try {
      for (const id of ['..', '../../outside', '..%2f', 'a/../../b']) {
        child.send(`append ${id} 1 x`);
        expect(await child.next()).toBe('append INVALID_ARGUMENT');
        child.send(`save ${id} 0 1`);
        expect(await child.next()).toBe('save INVALID_ARGUMENT');
      }
    } finally {
      child.send('exit');
      await child.exited;
    }
    expect(existsSync(join(workspace, 'traversal'))).toBe(false);
    expect(existsSync(join(workspace, 'outside'))).toBe(false);
    expect(existsSync(join(workspace, 'b'))).toBe(false);
  });
});
