/**
 * The namespace-default table (src/namespaces.ts) is what the verbs do: with a memory in another
 * namespace, each verb called without a namespace reaches it exactly when its default is "*".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_NAMESPACES, DEFAULT_NAMESPACE, NAMESPACE_DEFAULTS, type NamespacedVerb } from '../src/namespaces.js';
import { openMemory } from '../src/index.js';
import { tempDb } from './helpers.js';

test('each verb called without a namespace works where NAMESPACE_DEFAULTS says', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const mine = await mem.add('zebra crossing near home');
    const other = await mem.add('zebra crossing far away', { namespace: 'other' });
    const oldOther = await mem.add('an expired zebra note', { namespace: 'other', expiresAt: past });
    const seen: Record<NamespacedVerb, boolean> = {
      // Writes: does the new memory land outside "default"?
      add: (await mem.get(mine.id))!.namespace !== DEFAULT_NAMESPACE,
      addMany: (await mem.get((await mem.addMany([{ content: 'yak one' }]))[0]!.id))!.namespace !== DEFAULT_NAMESPACE,
      addConversation:
        (await mem.get((await mem.addConversation([{ speaker: 'Ann', content: 'the yak is fine, thanks for asking' }]))[0]!.id))!.namespace !==
        DEFAULT_NAMESPACE,
      import:
        (await mem.import([{ id: '01900000-0000-7000-8000-0000000000aa', content: 'imported yak' }])).imported === 1 &&
        (await mem.get('01900000-0000-7000-8000-0000000000aa'))!.namespace !== DEFAULT_NAMESPACE,
      // Reads and changes: does the call reach the memory of "other"?
      recall: (await mem.recall('zebra')).some((h) => h.id === other.id),
      list: (await mem.list()).some((r) => r.id === other.id),
      count: (await mem.count()) !== (await mem.count({ namespace: DEFAULT_NAMESPACE })),
      get: (await mem.get(other.id)) !== null,
      history: (await mem.history(other.id)).length > 0,
      update: await mem.update(other.id, { category: 'x' }).then(
        () => true,
        () => false,
      ),
      stats: (await mem.stats()).namespaces.other !== undefined,
      export: [...mem.export()].some((r) => r.id === other.id),
      prune: (await mem.prune({ dryRun: true })).ids.includes(oldOther.id),
      forget: await mem.forget(other.id),
    };
    for (const verb of Object.keys(NAMESPACE_DEFAULTS) as NamespacedVerb[]) {
      assert.equal(seen[verb], NAMESPACE_DEFAULTS[verb] === ALL_NAMESPACES, `${verb} defaults to "${NAMESPACE_DEFAULTS[verb]}"`);
    }
  } finally {
    await mem.close();
  }
});
