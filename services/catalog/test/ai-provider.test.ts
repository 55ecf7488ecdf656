import { join } from 'node:path';
import type { ApltDatabase } from '@aplt/db';
import {
  createTestPgDatabase,
  startHttpReceiver,
  type HttpReceiver,
  type TestPgDatabase,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiProviderFromConfig, builtinProvider } from '../src/ai/ai-provider';
import { assist } from '../src/ai/assist.service';
import { generateLines } from '../src/ai/generate-lines.service';
import { productSearch } from '../src/ai/product-search.service';
import { parseProductQuery } from '../src/ai/query-parser';
import { findConnector } from '../src/connectors/connector-registry';
import { runConnector } from '../src/connectors/connector-run.service';
import { createRun } from '../src/connectors/sync-run.repository';
import { fixtures, seedSuppliersAndCategories } from './helpers';

const chat = (content: string) => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  },
});

describe('AI provider: OpenAI-compatible chat completions on loopback, built-in engine otherwise', () => {
  let aplt: TestPgDatabase<ApltDatabase>;
  let llm: HttpReceiver;

  beforeAll(async () => {
    aplt = await createTestPgDatabase('aplt');
    await seedSuppliersAndCategories(aplt.db, (code) => join(fixtures, code));
    for (const kind of ['products', 'prices', 'printdata']) {
      const r = await createRun(aplt.db, { connector: `01_${kind}` });
      await runConnector(aplt.db, r.id, findConnector(`01_${kind}`)!, {
        batchSize: 100,
        defaultMarginPercent: '40',
      });
    }
    llm = await startHttpReceiver();
  });
  afterAll(async () => {
    await llm?.close();
    await aplt?.drop();
  });

  const provider = () =>
    aiProviderFromConfig({
      AI_BASE_URL: `${llm.url}/v1`,
      AI_API_KEY: 'sk-test',
      AI_MODEL: 'test-model',
      AI_TIMEOUT_MS: 5000,
    });

  it('uses the built-in engine when AI_* is not configured', () => {
    expect(aiProviderFromConfig({ AI_TIMEOUT_MS: 1000 }).name).toBe('builtin');
    expect(parseProductQuery('blue pens under 50 cents with pad print')).toEqual({
      terms: 'pen',
      colour: 'blue',
      max_unit_price: '0.5000',
      technique: 'pad print',
      quantity: null,
    });
    expect(parseProductQuery('250 Stück rote Kugelschreiber unter 0,80 euro')).toMatchObject({
      colour: 'red',
      max_unit_price: '0.8000',
      quantity: 250,
    });
  });

  it('sends a chat-completions request and uses the filters the model extracted', async () => {
    const before = llm.requests.length;
    llm.respondWith(() =>
      chat(
        JSON.stringify({
          terms: 'balpen',
          colour: 'Blue',
          max_unit_price: '0.50',
          technique: 'pad print',
          quantity: 250,
        }),
      ),
    );
    const result = await productSearch(
      aplt.db,
      provider(),
      'iets om mee te schrijven in het blauw, goedkoop',
      5,
    );
    const req = llm.requests[before]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.json()).toMatchObject({
      model: 'test-model',
      messages: [{ role: 'system' }, { role: 'user', content: expect.stringContaining('blauw') }],
    });
    expect(result.provider).toBe('openai:test-model');
    expect(result.filters).toEqual({
      terms: 'balpen',
      colour: 'blue',
      max_unit_price: '0.50',
      technique: 'pad print',
      quantity: 250,
    });
    expect(result.results.map((r) => r.sku)).toEqual(['MO1001-01']);
  });

  it('falls back to the built-in engine when the API fails or answers nonsense', async () => {
    llm.respondWith(() => ({ status: 500, body: { error: { message: 'overloaded' } } }));
    const failed = await productSearch(aplt.db, provider(), 'blauwe pen onder 50 cent', 5);
    expect(failed.provider).toBe('builtin');
    expect(failed.results.map((r) => r.sku)).toEqual(['MO1001-01']);
    llm.respondWith(() => chat('I am not JSON'));
    const nonsense = await productSearch(aplt.db, provider(), 'blauwe pen onder 50 cent', 5);
    expect(nonsense.provider).toBe('builtin');
    expect(nonsense.results).toHaveLength(1);
  });

  it('prices the lines the model proposes from our own scales and technique pricing', async () => {
    llm.respondWith(() =>
      chat(
        JSON.stringify({
          items: [{ terms: 'mok', colour: null, quantity: 250, technique: 'pad print', colours: 1 }],
        }),
      ),
    );
    const proposal = await generateLines(aplt.db, provider(), 'twee honderd vijftig mokken bedrukt');
    expect(proposal.provider).toBe('openai:test-model');
    // mug: purchase 1.95 at 250 x 1.4 = 2.73; print 0.25 (scale 1); setup 35.00 -> 250 x 2.98 + 35 = 780.00
    expect(proposal.lines).toEqual([
      expect.objectContaining({
        sku: 'MO1002-01',
        quantity: 250,
        unit_price: '2.7300',
        print_unit_price: '0.2500',
        setup_cost: '35.00',
        line_total: '780.00',
      }),
    ]);
    const builtin = await generateLines(aplt.db, builtinProvider, '250 mokken met tampondruk');
    expect(builtin.lines[0]).toMatchObject({ line_total: '780.00' });
  });

  it('lets the model phrase the assistant answer from the figures it is given', async () => {
    llm.respondWith((req) => {
      const data = JSON.parse(req.json().messages[1].content.split('Data: ')[1]);
      return chat(`Er staan ${data.open_quotations.count} offertes open.`);
    });
    const answer = await assist(aplt.db, provider(), 'Hoeveel offertes staan open?');
    expect(answer).toMatchObject({
      answer: 'Er staan 0 offertes open.',
      provider: 'openai:test-model',
      intents: ['open_quotations'],
    });
    expect(answer.data).toEqual({ open_quotations: { count: 0, total: '0', expiring_within_7_days: 0 } });
  });
});
