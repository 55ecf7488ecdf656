import type { ApltDatabase, Kysely } from '@aplt/db';
import { loadConfig } from '@aplt/service-documents/config';
import {
  changeOrderStatus,
  convertQuotation,
  createQuotation,
  invoiceOrder,
  registerPayment,
} from '@aplt/service-documents/flow';
import type { SeedContext } from './index';

const company = (name: string) => ({
  company_name: name,
  address: 'Keizersgracht 100',
  postal_code: '1015 AA',
  city: 'Amsterdam',
  country: 'NL',
  coc_number: '12345678',
  vat_number: 'NL123456789B01',
  iban: 'NL91ABNA0417164300',
  email: 'verkoop@aplt.localhost',
  phone: '+31 20 123 4567',
});

const ledger = [
  { code: '1100', name: 'Bank', type: 'asset', system_key: 'bank' },
  { code: '1300', name: 'Debiteuren', type: 'asset', system_key: 'receivables' },
  { code: '1500', name: 'Af te dragen BTW', type: 'liability', system_key: 'vat_payable' },
  { code: '1610', name: 'Vooruitontvangen van klanten', type: 'liability', system_key: 'customer_credit' },
  { code: '8000', name: 'Omzet', type: 'revenue', system_key: 'revenue' },
];

const vatCodes = [
  { code: 'HOOG', name: 'BTW hoog 21%', rate: '21.00', category: 'S', is_default: true },
  { code: 'LAAG', name: 'BTW laag 9%', rate: '9.00', category: 'S', is_default: false },
  { code: 'NUL', name: 'BTW 0%', rate: '0.00', category: 'Z', is_default: false },
  {
    code: 'VERLEGD',
    name: 'BTW verlegd (intracommunautair)',
    rate: '0.00',
    category: 'AE',
    is_default: false,
    invoice_note: 'BTW verlegd',
  },
];

const customers = [
  {
    customer_number: 'K0001',
    email: 'inkoop@bakker-bouw.nl',
    company: 'Bakker Bouw BV',
    first_name: 'Jan',
    last_name: 'Bakker',
    country: 'NL',
    vat_number: 'NL001234567B01',
    coc_number: '87654321',
    address_line1: 'Dorpsstraat 1',
    postal_code: '3511 AA',
    city: 'Utrecht',
  },
  {
    customer_number: 'K0002',
    email: 'events@tulp-marketing.nl',
    company: 'Tulp Marketing',
    first_name: 'Sanne',
    last_name: 'de Vries',
    country: 'NL',
    address_line1: 'Stationsplein 5',
    postal_code: '2011 LR',
    city: 'Haarlem',
  },
  {
    customer_number: 'K0003',
    email: 'einkauf@mueller-werbung.de',
    company: 'Müller Werbung GmbH',
    first_name: 'Klaus',
    last_name: 'Müller',
    country: 'DE',
    vat_number: 'DE123456789',
    address_line1: 'Hohe Straße 10',
    postal_code: '50667',
    city: 'Köln',
  },
];

/** Master data every documents tenant needs; each statement is an idempotent upsert. */
async function seedMasterData(db: Kysely<ApltDatabase>, tenantName: string) {
  await db
    .insertInto('aplt_brands')
    .values({ code: 'default', name: tenantName, is_default: true, primary_color: '#1f6feb' })
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  const brand = await db
    .selectFrom('aplt_brands')
    .select('id')
    .where('code', '=', 'default')
    .executeTakeFirstOrThrow();
  for (const [key, value] of Object.entries(company(tenantName))) {
    await db
      .insertInto('aplt_cms_settings')
      .values({ brand_id: brand.id, key, value })
      .onConflict((oc) => oc.columns(['brand_id', 'key']).doNothing())
      .execute();
  }
  for (const a of ledger)
    await db
      .insertInto('aplt_ledger_accounts')
      .values(a)
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  for (const v of vatCodes)
    await db
      .insertInto('aplt_vat_codes')
      .values(v)
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  for (const t of [
    { code: 'NET14', name_nl: '14 dagen netto', name_en: '14 days net', days: 14, is_default: false },
    { code: 'NET30', name_nl: '30 dagen netto', name_en: '30 days net', days: 30, is_default: true },
    { code: 'NET60', name_nl: '60 dagen netto', name_en: '60 days net', days: 60, is_default: false },
  ]) {
    await db
      .insertInto('aplt_payment_terms')
      .values(t)
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }
  for (const s of [
    {
      key: 'franco_limit',
      value: '750.00',
      value_type: 'number',
      description: 'Shipping is free above this order value (excl. VAT)',
    },
    {
      key: 'shipping_cost_default',
      value: '12.99',
      value_type: 'number',
      description: 'Shipping below the franco limit',
    },
  ]) {
    await db
      .insertInto('aplt_settings')
      .values(s)
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
  for (const c of customers) {
    const exists = await db
      .selectFrom('aplt_customers')
      .select('id')
      .where('customer_number', '=', c.customer_number)
      .executeTakeFirst();
    if (!exists)
      await db
        .insertInto('aplt_customers')
        .values({ ...c, brand_id: brand.id })
        .execute();
  }
}

/** One quotation -> order -> invoice -> partial payment, once per tenant, so lists and reports show something. */
async function seedSampleFlow(db: Kysely<ApltDatabase>, config: ReturnType<typeof loadConfig>) {
  const any = await db.selectFrom('aplt_quotation_headers').select('id').limit(1).executeTakeFirst();
  if (any) return false;
  const customer = await db
    .selectFrom('aplt_customers')
    .select('id')
    .where('customer_number', '=', 'K0001')
    .executeTakeFirstOrThrow();
  const q = await createQuotation(
    db,
    config,
    {
      customer_id: Number(customer.id),
      title: 'Relatiegeschenken voorjaar',
      source_code: 'manual',
      lines: [
        {
          line_type: 'product',
          description: 'Balpen met logo (tampondruk 1 kleur)',
          quantity: 500,
          unit_price: '0.85',
          print_unit_price: '0.25',
          print_colours: 1,
          setup_costs: [{ description: 'Cliché tampondruk', quantity: 1, unit_cost: '45.00' }],
        },
        {
          line_type: 'product',
          description: 'Katoenen tas bedrukt',
          quantity: 100,
          unit_price: '2.40',
          setup_costs: [],
        },
      ],
    },
    { actor: 'seed', defaultSource: 'manual' },
  );
  await createQuotation(
    db,
    config,
    {
      customer_id: Number(customer.id),
      title: 'Beursmateriaal',
      source_code: 'agent',
      lines: [
        {
          line_type: 'product',
          description: 'Lanyard full colour',
          quantity: 250,
          unit_price: '1.10',
          setup_costs: [],
        },
      ],
    },
    { actor: 'seed', defaultSource: 'agent' },
  );
  const order = await convertQuotation(db, Number(q.id), { actor: 'seed' });
  for (const status of ['confirmed', 'shipped', 'delivered'] as const)
    await changeOrderStatus(db, Number(order.id), status, {});
  const invoice = await invoiceOrder(db, { order_id: Number(order.id), document_type: 'invoice' }, 'seed');
  await registerPayment(
    db,
    {
      customer_id: Number(customer.id),
      amount: '250.00',
      reference: 'Deelbetaling',
      allocations: [{ invoice_id: Number(invoice.id), amount: '250.00' }],
    },
    'seed',
  );
  return true;
}

export async function seedDocuments(ctx: SeedContext): Promise<void> {
  const config = loadConfig({ ...ctx.env, LOG_LEVEL: 'silent' });
  let flows = 0;
  const tenants = (await ctx.registry.list()).filter((t) => t.kind === 'tenant');
  for (const t of tenants) {
    const db = ctx.databases.aplt(t);
    await seedMasterData(db, t.name);
    if (await seedSampleFlow(db, config)) flows++;
  }
  ctx.log(
    `documents master data on ${tenants.length} tenants; sample quotation -> invoice flow on ${flows} new`,
  );
}
