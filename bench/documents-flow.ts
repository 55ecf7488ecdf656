// A 20-line quotation created, converted to an order and invoiced (three documents, each in its
// own transaction with number allocation, VAT summary and journal), in documents per second,
// at 1 and 8 concurrent clients, beside the floor measured in the same run: inserting the same
// 20 lines three times as plain rows (header + 20 line INSERTs per document, one transaction each).
import { generateSecrets } from '@aplt/config';
import { type ApltDatabase, createPgDb } from '@aplt/db';
import { benchApltDb } from './documents-db';
import { loadConfig } from '@aplt/service-documents/config';
import { convertQuotation, createQuotation, invoiceOrder } from '@aplt/service-documents/flow';

const SECONDS = Number(process.env.SECONDS ?? 5);
// The services' config refuses to load without the fleet's secrets; fresh ones, as the start command makes.
const config = loadConfig({ ...generateSecrets(), LOG_LEVEL: 'silent' });
const lines = Array.from({ length: 20 }, (_, i) => ({
  line_type: 'product' as const,
  description: `Artikel ${i + 1}`,
  quantity: 10 + i,
  unit_price: `${(1.15 + i * 0.37).toFixed(2)}`,
  vat_rate: i % 5 === 0 ? '9' : '21',
  setup_costs: [],
}));

async function run(clients: number, once: () => Promise<number>) {
  let docs = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) docs += await once();
    }),
  );
  return docs / SECONDS;
}

const tdb = await benchApltDb('flow');
try {
  const setup = tdb.db;
  const customer = await setup
    .insertInto('aplt_customers')
    .values({ email: 'bench@example.com', company: 'Bench BV', country: 'NL' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const customerId = Number(customer.id);
  console.log('clients  flow docs/s  plain-insert docs/s  ratio');
  for (const clients of [1, 8]) {
    const pool = createPgDb<ApltDatabase>(tdb.address, { max: clients, applicationName: 'bench-flow' });
    try {
      const flow = async () => {
        const q = await createQuotation(
          pool,
          config,
          { customer_id: customerId, lines },
          { actor: 'bench', defaultSource: 'admin' },
        );
        const o = await convertQuotation(pool, Number(q.id), { actor: 'bench' });
        await invoiceOrder(pool, { order_id: Number(o.id), document_type: 'invoice' }, 'bench');
        return 3;
      };
      let n = 0;
      const plain = async () => {
        for (let d = 0; d < 3; d++) {
          await pool.transaction().execute(async (trx) => {
            const h = await trx
              .insertInto('aplt_quotation_headers')
              .values({
                quotation_number: `Q-2099-${String(++n + clients * 1_000_000).padStart(4, '0')}`,
                customer_id: customerId,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            for (const [i, l] of lines.entries()) {
              await trx
                .insertInto('aplt_quotation_lines')
                .values({
                  quotation_id: h.id,
                  line_no: i + 1,
                  description: l.description,
                  quantity: l.quantity,
                  unit_price: l.unit_price,
                  line_total: '1.00',
                })
                .execute();
            }
          });
        }
        return 3;
      };
      await flow(); // warm-up
      const base = await run(clients, plain);
      const docs = await run(clients, flow);
      console.log(
        `${String(clients).padStart(7)}  ${docs.toFixed(1).padStart(11)}  ${base.toFixed(1).padStart(19)}  ${((docs / base) * 100).toFixed(0).padStart(4)}%`,
      );
    } finally {
      await pool.destroy();
    }
  }
} finally {
  await tdb.drop();
}
