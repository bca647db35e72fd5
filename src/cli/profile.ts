/**
 * `mnemolite profile show|set|edit|history -n NS`: the namespace's working memory (mem.profile).
 * `edit` opens $VISUAL / $EDITOR on the current text and writes it back only if no one changed it
 * meanwhile (the version read is the expected version).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { MnemoliteError, type Memory, type Profile } from '../index.js';

type WithMemory = <T>(cmd: Command, fn: (m: Memory, g: { json?: boolean }) => Promise<T>, extra?: { readonly?: boolean }) => Promise<T>;

function wholeNumber(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new MnemoliteError('INVALID_INPUT', `${name} must be a whole number, 0 or more, got "${v}".`);
    return n;
  };
}

const plain = (p: Profile) => ({ ...p, updatedAt: p.updatedAt ? p.updatedAt.toISOString() : null });

function editText(initial: string): string {
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor) throw new MnemoliteError('INVALID_INPUT', 'Set $EDITOR (or $VISUAL) to edit the profile, or use: mnemolite profile set -n NS -');
  const dir = mkdtempSync(join(tmpdir(), 'mnemolite-profile-'));
  const file = join(dir, 'profile.md');
  try {
    writeFileSync(file, initial, { mode: 0o600 });
    // Through the shell, as git runs $EDITOR: it may hold arguments ("code --wait").
    const r = spawnSync(`${editor} "$MNEMOLITE_PROFILE_FILE"`, { shell: true, stdio: 'inherit', env: { ...process.env, MNEMOLITE_PROFILE_FILE: file } });
    if (r.status !== 0) throw new MnemoliteError('INVALID_INPUT', `The editor exited with ${r.status ?? r.signal}; the profile was not changed.`);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Register `profile`. The helpers come from main.ts (open-run-close, output). */
export function registerProfile(
  program: Command,
  withMemory: WithMemory,
  out: (s: string) => void,
  json: (v: unknown) => void,
  readStdin: () => Promise<string>,
): void {
  const profile = program.command('profile').description("a namespace's working memory: one always-current document, at the top of context()");
  const show = (p: Profile, g: { json?: boolean }): void => {
    if (g.json) json(plain(p));
    else if (!p.version) out(`no profile in namespace ${JSON.stringify(p.namespace)} yet (set one with: mnemolite profile set -n ${p.namespace} -)`);
    else out(`${p.content}${p.content.endsWith('\n') ? '' : '\n'}-- version ${p.version}, ${p.updatedAt!.toISOString()}`);
  };

  profile
    .command('show')
    .description('print the profile')
    .option('-n, --namespace <ns>', 'namespace (default "default")')
    .action(async (o: { namespace?: string }, cmd: Command) => {
      await withMemory(cmd, async (m, g) => show(await m.profile.get(o.namespace ? { namespace: o.namespace } : {}), g), { readonly: true });
    });

  profile
    .command('set')
    .description('replace the profile with the text given ("-" reads it from stdin; "" clears it)')
    .argument('<text...>', 'the new document, or - for stdin')
    .option('-n, --namespace <ns>', 'namespace (default "default")')
    .option('--expect-version <n>', 'write only if the stored version is still n (0: no profile yet)', wholeNumber('--expect-version'))
    .action(async (words: string[], o: { namespace?: string; expectVersion?: number }, cmd: Command) => {
      const text = words.length === 1 && words[0] === '-' ? await readStdin() : words.join(' ');
      await withMemory(cmd, async (m, g) =>
        show(
          await m.profile.set(text, {
            ...(o.namespace ? { namespace: o.namespace } : {}),
            ...(o.expectVersion !== undefined ? { expectedVersion: o.expectVersion } : {}),
          }),
          g,
        ),
      );
    });

  profile
    .command('edit')
    .description('edit the profile in $EDITOR; written back only if no one changed it meanwhile')
    .option('-n, --namespace <ns>', 'namespace (default "default")')
    .action(async (o: { namespace?: string }, cmd: Command) => {
      await withMemory(cmd, async (m, g) => {
        const scope = o.namespace ? { namespace: o.namespace } : {};
        const cur = await m.profile.get(scope);
        const text = editText(cur.content);
        if (text === cur.content) {
          if (g.json) json(plain(cur));
          else out('profile unchanged');
          return;
        }
        show(await m.profile.set(text, { ...scope, expectedVersion: cur.version }), g);
      });
    });

  profile
    .command('history')
    .description('earlier versions, newest first')
    .option('-n, --namespace <ns>', 'namespace (default "default")')
    .option('--limit <n>', 'versions per page (default 20, at most 50)', wholeNumber('--limit'))
    .option('--offset <n>', 'versions to skip', wholeNumber('--offset'))
    .action(async (o: { namespace?: string; limit?: number; offset?: number }, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          const h = await m.profile.history({
            ...(o.namespace ? { namespace: o.namespace } : {}),
            ...(o.limit !== undefined ? { limit: o.limit } : {}),
            ...(o.offset !== undefined ? { offset: o.offset } : {}),
          });
          if (g.json) json({ ...h, versions: h.versions.map((v) => ({ ...v, savedAt: v.savedAt.toISOString() })) });
          else if (!h.versions.length) out(`no profile versions in namespace ${JSON.stringify(h.namespace)}${o.offset ? ` at offset ${o.offset}` : ''}`);
          else for (const v of h.versions) out(`-- version ${v.version}, ${v.savedAt.toISOString()}\n${v.content}`);
        },
        { readonly: true },
      );
    });
}
