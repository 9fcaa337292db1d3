import { chmod, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextManager, InvalidArgumentError, createMemoryStorage } from '../../src/index.js';
import type { ContextEvents, ContextManagerOptions, ProjectMemory, SecretRedactEvent } from '../../src/index.js';
import { createFileStorage } from '../../src/storage/fs/index.js';
import { fakeRun, plantedSecrets } from '../fixtures/secrets.js';
import type { PlantedSecret } from '../fixtures/secrets.js';
import { prose } from '../helpers.js';

const directories: string[] = [];

async function makeTempDirectory(): Promise<string> {
  const created = await mkdtemp(join(tmpdir(), 'mobius-secrets-'));
  directories.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(directories.map((path) => rm(path, { recursive: true, force: true })));
});

const EVENT_NAMES: readonly (keyof ContextEvents)[] = [
  'entry-add', 'file-open', 'file-update', 'file-close', 'secret-redact', 'tool-call-orphan', 'pin-add', 'pin-remove',
  'graduation-start', 'graduation-end', 'graduation-error', 'summarizer-fallback', 'fact-add', 'fact-supersede',
  'task-update', 'archive-add', 'window-trim', 'storage-error', 'pressure', 'session-save',
];

/** Small tiers so that a few dozen records graduate into T1, T2 and the archive. */
function managerOptions(extra: ContextManagerOptions = {}): ContextManagerOptions {
  return {
    budget: 6_000,
    budgets: { facts: 600, pins: 3_000, summaries: 300, scratchpad: 1_500, working: 700 },
    maxEntryTokens: 400,
    ...extra,
  };
}

async function listFiles(directory: string): Promise<{ files: string[]; directories: string[] }> {
  const files: string[] = [];
  const folders: string[] = [directory];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      const nested = await listFiles(path);
      files.push(...nested.files);
      folders.push(...nested.directories);
    } else {
      files.push(path);
    }
  }
  return { files, directories: folders };
}

/** Everything observable of a manager that could carry a secret, as text. */
async function observe(manager: ContextManager, secrets: readonly PlantedSecret[]): Promise<Record<string, string>> {
  await manager.settle();
  const seen: Record<string, string> = {
    state: JSON.stringify(manager.state()),
    window: JSON.stringify(manager.build()),
    facts: JSON.stringify(manager.state().facts),
    projectMemory: JSON.stringify(manager.projectMemory()),
    recapBrief: await manager.recap('brief'),
    recapFull: await manager.recap('full'),
    recapTopic: await manager.recap({ topic: 'config deploy key token' }),
  };
  for (const file of manager.state().files) seen[`history ${file.path}`] = JSON.stringify(manager.fileHistory({ path: file.path }));
  for (const secret of secrets) {
    // Recall by the secret's kind, by the words around it, and by the secret itself.
    const queries = [secret.kind.replace(/-/g, ' '), secret.line.replace(/[^A-Za-z ]+/g, ' ').trim().slice(0, 60) || 'config', secret.value.slice(0, 40)];
    for (const query of queries) {
      const hits = await manager.recall(query, { show: true, limit: 10, maxTokens: 4_000 });
      seen[`recall ${secret.kind} ${query.slice(0, 12)}`] = JSON.stringify(hits) + JSON.stringify(manager.build());
    }
  }
  return seen;
}

function leaksIn(seen: Record<string, string>, secrets: readonly PlantedSecret[]): string[] {
  const found: string[] = [];
  for (const [where, text] of Object.entries(seen)) {
    for (const secret of secrets) {
      for (const needle of secret.needles) if (text.includes(needle)) found.push(`${secret.kind} in ${where}`);
    }
  }
  return found;
}

/** Plants each secret in each input path, with enough ordinary exchanges around them to graduate. */
function plantEverywhere(manager: ContextManager, secrets: readonly PlantedSecret[], tag: string): void {
  secrets.forEach((secret, index) => {
    const id = `${tag}-${index}`;
    const path = `config/${tag}-${secret.kind}.env`;
    manager.addMessage({ role: 'user', content: `Step ${id}: the staging config has ${secret.line}\nWe decided to keep this configuration for the deploy.` });
    manager.addMessage({
      role: 'assistant',
      content: `Decision: deploy with ${secret.line} as the staging credential.`,
      toolCalls: [{ id: `call-${id}`, name: 'bash', input: { command: `echo "${secret.line}" >> .env`, options: { token: secret.value, retries: 2 } } }],
    });
    manager.addToolResult({ callId: `call-${id}`, output: `$ cat .env\n${secret.line}\nPORT=8080\n` });
    manager.openFile({ path, content: `# staging\n${secret.line}\nPORT=8080\n` });
    manager.updateFile({ path, content: `# staging, rotated\n${secret.line}\nPORT=9090\n`, reason: secret.line.length < 400 ? `moved ${secret.line}` : 'moved the key' });
    manager.addNote({ content: `harness saw ${secret.line}` });
    manager.pin({ text: `Use ${secret.line.slice(0, 400)}` });
    manager.addMessage({ role: 'assistant', content: `${prose(50, index)} Done, all tests pass.` });
  });
  for (let turn = 0; turn < 30; turn += 1) {
    manager.addMessage({ role: 'user', content: `Now let's look at module ${turn} in src/module${turn}.ts.` });
    manager.addMessage({ role: 'assistant', content: `${prose(60, turn)} Fixed, all tests pass.` });
  }
}

describe('secrets planted in every input path', () => {
  it('never reach storage files, windows, recall, recaps, facts or project memory', async () => {
    const directory = await makeTempDirectory();
    const storage = createFileStorage({ directory });
    const secrets = plantedSecrets(1);
    const manager = new ContextManager(managerOptions({ storage, sessionId: 'planted' }));
    const events: string[] = [];
    const redactions: SecretRedactEvent[] = [];
    for (const name of EVENT_NAMES) manager.on(name, (payload: unknown) => events.push(`${name} ${JSON.stringify(payload)}`));
    manager.on('secret-redact', (event) => redactions.push(event));
    const windows: string[] = [];
    manager.on('entry-add', () => windows.push(JSON.stringify(manager.build())));

    plantEverywhere(manager, secrets, 'a');
    const seen = await observe(manager, secrets);
    await manager.save({ label: 'after planting' });

    // The secrets went all the way through: graduated into summaries, facts and the archive.
    const state = manager.state();
    expect(state.archive.length).toBeGreaterThan(20);
    expect(state.archive.some((item) => item.type === 'entry' && item.entry.text.includes('[secret:'))).toBe(true);
    expect(JSON.stringify([state.summaries, state.archive.filter((item) => item.type === 'summary')])).toContain('[secret:');
    expect(state.facts.length).toBeGreaterThan(0);
    expect(JSON.stringify(state.facts)).toContain('[secret:');
    for (const secret of secrets) expect(seen['state']).toContain(`[secret:${secret.kind}#1]`);

    // Every entry point reported what it redacted, never the secret itself.
    const methods = new Set(redactions.map((event) => event.method));
    expect([...methods].sort()).toEqual(['addMessage', 'addNote', 'addToolResult', 'openFile', 'pin', 'updateFile']);
    const fields = new Set(redactions.flatMap((event) => event.redactions.map((redaction) => `${event.method}:${redaction.field}`)));
    expect(fields).toContain('addMessage:toolCalls[0].input.command');
    expect(fields).toContain('addMessage:toolCalls[0].input.options.token');
    expect(fields).toContain('updateFile:reason');
    expect(new Set(redactions.flatMap((event) => event.redactions.map((redaction) => redaction.kind)))).toEqual(new Set(secrets.map((secret) => secret.kind)));

    const { files, directories: folders } = await listFiles(directory);
    expect(files.length).toBeGreaterThanOrEqual(3);
    const stored: Record<string, string> = {};
    for (const file of files) stored[`file ${file.slice(directory.length)}`] = await readFile(file, 'utf8');
    expect(Object.values(stored).join('\n')).toContain('[secret:');

    const loaded = await ContextManager.load({ ...managerOptions(), storage, sessionId: 'planted' });
    const next = new ContextManager({ ...managerOptions(), projectMemory: manager.projectMemory() });
    const everything = {
      ...seen,
      ...stored,
      events: events.join('\n'),
      windows: windows.join('\n'),
      loaded: JSON.stringify(loaded.state()) + JSON.stringify(loaded.build()),
      nextSession: JSON.stringify(next.state()) + JSON.stringify(next.build()) + (await next.recap('full')),
    };
    expect(leaksIn(everything, secrets)).toEqual([]);

    if (process.platform !== 'win32') {
      const modes = await Promise.all([...files, ...folders.slice(1)].map(async (path) => [path.slice(directory.length), (await stat(path)).mode & 0o777] as const));
      for (const [path, mode] of modes) expect(`${path} ${mode.toString(8)}`).toBe(`${path} ${files.includes(directory + path) ? '600' : '700'}`);
    }
  });

  it('redacts secrets carried in imported project memory', async () => {
    const secrets = plantedSecrets(2);
    const [awsKey, , , , slack] = secrets;
    // Memory written by an older version, before redaction existed.
    const memory: ProjectMemory = {
      formatVersion: 1,
      facts: [
        {
          key: 'deploy-key',
          category: 'decisions',
          value: `deploy with ${awsKey?.line}`,
          source: { from: 1, to: 2 },
          history: [{ value: `notify with ${slack?.line}`, source: { from: 1, to: 1 }, supersededAt: 2 }],
          tokens: 20,
        },
      ],
      pins: [`Never print ${slack?.line}`],
    };
    const storage = createMemoryStorage();
    const manager = new ContextManager({ ...managerOptions(), projectMemory: memory, storage });
    await manager.save();
    const seen = {
      ...(await observe(manager, secrets)),
      log: JSON.stringify(await storage.read('default', { afterSeq: 0 })),
      snapshot: JSON.stringify(await storage.loadSnapshot('default')),
    };
    expect(leaksIn(seen, secrets)).toEqual([]);
    expect(manager.state().facts[0]?.value).toBe('deploy with export AWS_ACCESS_KEY_ID=[secret:aws-key#1]');
    expect(manager.state().pins[0]?.text).toBe('Never print SLACK_BOT_TOKEN=[secret:slack-token#1]');
  });
});

describe('placeholders', () => {
  const [awsKey, , github] = plantedSecrets(4);
  const otherKey = (seed: number): string => `AK${'IA'}${fakeRun('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16, seed)}`;

  it('stay the same for the same secret across entry points, save and load', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage, sessionId: 'stable' });
    const first = manager.addMessage({ role: 'user', content: `key ${awsKey?.value} and ${github?.value}` });
    expect(first.text).toBe('key [secret:aws-key#1] and [secret:github-token#1]');
    expect(manager.addNote({ content: `again ${awsKey?.value}` }).text).toBe('again [secret:aws-key#1]');
    expect(manager.addMessage({ role: 'user', content: `new ${otherKey(1)}` }).text).toBe('new [secret:aws-key#2]');
    const call = manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'env', input: { value: awsKey?.value ?? '' } }] });
    expect(call.toolCalls?.[0]?.input).toEqual({ value: '[secret:aws-key#1]' });
    expect(manager.openFile({ path: '.env', content: `KEY=${awsKey?.value}`, callId: 'c1' }).content).toBe('KEY=[secret:aws-key#1]');
    await manager.save();

    const loaded = await ContextManager.load({ storage, sessionId: 'stable' });
    expect(loaded.addMessage({ role: 'user', content: `still ${awsKey?.value}` }).text).toBe('still [secret:aws-key#1]');
    expect(loaded.addMessage({ role: 'user', content: `third ${otherKey(2)}` }).text).toBe('third [secret:aws-key#3]');
    expect(loaded.redact(`${github?.value}`)).toBe('[secret:github-token#1]');

    // Events appended after the last save carry their ledger records: a replay from the log agrees.
    await loaded.settle();
    const replayed = await ContextManager.load({ storage, sessionId: 'stable' });
    expect(replayed.redact(`${otherKey(2)} ${otherKey(1)}`)).toBe('[secret:aws-key#3] [secret:aws-key#2]');
    expect(replayed.redact(otherKey(3))).toBe('[secret:aws-key#4]');
  });

  it('never reuse a number after a rollback', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage });
    manager.addMessage({ role: 'user', content: `first ${otherKey(10)}` });
    await manager.save();
    const version = (await manager.listVersions())[0]?.version ?? 0;
    manager.addMessage({ role: 'user', content: `second ${otherKey(11)}` });
    await manager.rollback(version);
    expect(manager.addMessage({ role: 'user', content: `third ${otherKey(12)}` }).text).toBe('third [secret:aws-key#3]');
    expect(manager.redact(otherKey(10))).toBe('[secret:aws-key#1]');
  });

  it('are predicted by redact() without recording anything', () => {
    const manager = new ContextManager();
    expect(manager.redact(`${awsKey?.value}`)).toBe('[secret:aws-key#1]');
    expect(manager.redact(`${otherKey(20)}`)).toBe('[secret:aws-key#1]');
    expect(manager.state().lastSeq).toBe(0);
    manager.addNote({ content: `${otherKey(20)}` });
    expect(manager.redact(`${awsKey?.value}`)).toBe('[secret:aws-key#2]');
  });
});

describe('the redact option', () => {
  const [awsKey, , github] = plantedSecrets(5);

  it('keeps allow-listed values verbatim and redacts the rest', () => {
    const manager = new ContextManager({ redact: { allow: [awsKey?.value ?? '', /^ghx_/] } });
    const entry = manager.addMessage({ role: 'user', content: `${awsKey?.value} ${github?.value}` });
    expect(entry.text).toBe(`${awsKey?.value} [secret:github-token#1]`);
  });

  it('adds extra patterns, reported under their own name', () => {
    const manager = new ContextManager({ redact: { patterns: [{ name: 'acme-token', pattern: /acme_[a-z0-9]{16}/ }] } });
    const kinds: string[] = [];
    manager.on('secret-redact', (event) => kinds.push(...event.redactions.map((redaction) => redaction.kind)));
    const result = manager.addNote({ content: `export ACME=acme_${fakeRun('abcdefghijklmnopqrstuvwxyz0123456789', 16, 30)}` });
    expect(result.text).toBe('export ACME=[secret:acme-token#1]');
    expect(kinds).toEqual(['acme-token']);
  });

  it('records text verbatim with `redact: false`', () => {
    const manager = new ContextManager({ redact: false });
    let redactions = 0;
    manager.on('secret-redact', () => (redactions += 1));
    manager.addMessage({ role: 'user', content: `${awsKey?.value}` });
    manager.openFile({ path: 'a.env', content: `TOKEN=${github?.value}` });
    expect(JSON.stringify(manager.state())).toContain(awsKey?.value);
    expect(manager.state().files[0]?.content).toBe(`TOKEN=${github?.value}`);
    expect(manager.redact(`${awsKey?.value}`)).toBe(awsKey?.value);
    expect(redactions).toBe(0);
  });

  it('rejects invalid redaction options with an InvalidArgumentError', () => {
    expect(() => new ContextManager({ redact: { entropy: 12 } })).toThrow(InvalidArgumentError);
    expect(() => new ContextManager({ redact: { patterns: [{ name: 'ACME', pattern: /acme/ }] } })).toThrow(/redact/);
    expect(() => new ContextManager({ redact: { alow: [] } as never })).toThrow(InvalidArgumentError);
  });
});

describe('redacted file content', () => {
  const [awsKey] = plantedSecrets(6);
  const original = `# deploy\nAWS_ACCESS_KEY_ID=${awsKey?.value}\nREGION=eu-west-1\n`;

  it('compares like with like in isStale()', () => {
    const manager = new ContextManager();
    manager.openFile({ path: 'deploy.env', content: original });
    expect(manager.state().files[0]?.content).toBe('# deploy\nAWS_ACCESS_KEY_ID=[secret:aws-key#1]\nREGION=eu-west-1\n');
    expect(manager.isStale({ path: 'deploy.env', content: original })).toBe(false);
    expect(manager.isStale({ path: 'deploy.env', content: original.replace('eu-west-1', 'us-east-1') })).toBe(true);
    const rotated = `AK${'IA'}${fakeRun('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16, 40)}`;
    expect(manager.isStale({ path: 'deploy.env', content: original.replace(awsKey?.value ?? '', rotated) })).toBe(true);
  });

  it('records an update that only rotates a secret as a placeholder change', () => {
    const manager = new ContextManager();
    manager.openFile({ path: 'deploy.env', content: original });
    const rotated = `AK${'IA'}${fakeRun('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16, 41)}`;
    manager.updateFile({ path: 'deploy.env', content: original.replace(awsKey?.value ?? '', rotated), reason: 'rotate key' });
    const history = manager.fileHistory({ path: 'deploy.env' });
    expect(history.patches.join('\n')).toContain('[secret:aws-key#2]');
    expect(JSON.stringify(manager.state())).not.toContain(rotated);
    manager.updateFile({ path: 'deploy.env', content: original });
    expect(manager.state().files[0]?.content).toContain('[secret:aws-key#1]');
  });
});

describe.skipIf(process.platform === 'win32')('file storage permissions (skipped on Windows)', () => {
  it('creates folders 700 and files 600, and tightens a journal an older version left readable', async () => {
    const root = join(await makeTempDirectory(), 'sessions');
    const storage = createFileStorage({ directory: root });
    const manager = new ContextManager({ storage, sessionId: 'modes', autoSave: false });
    manager.addMessage({ role: 'user', content: 'first' });
    await manager.save();
    const { files, directories: folders } = await listFiles(root);
    for (const folder of folders) expect(((await stat(folder)).mode & 0o777).toString(8)).toBe('700');
    for (const file of files) expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    // Appends go to the journal of the newest version.
    const journal = files.filter((file) => file.endsWith('.jsonl')).sort().at(-1) as string;
    await chmod(journal, 0o644);
    manager.addMessage({ role: 'user', content: 'second' });
    await manager.settle();
    expect(((await stat(journal)).mode & 0o777).toString(8)).toBe('600');
  });
});
