import type { ApltDatabase } from '@aplt/db';
import type { Kysely } from 'kysely';
import { makePng } from './png';

/**
 * Inserts a complete set of documents into a tenant's aplt database, the way the documents core
 * stores them (credit notes are invoice rows of type credit_note pointing at their invoice,
 * VAT per rate in aplt_invoice_vat_summary, numbers F-/C-/Q-/O-yyyy-nnnn). Amounts are chosen so
 * every total can be checked by hand: see the comments per document.
 */
export const COMPANY = {
  company_name: 'Acme Relatiegeschenken B.V.',
  address: 'Industrieweg 12',
  postal_code: '3542 AD',
  city: 'Utrecht',
  country: 'NL',
  coc_number: '12345678',
  vat_number: 'NL123456789B01',
  iban: 'NL91ABNA0417164300',
  bic: 'ABNANL2A',
  email: 'verkoop@acme-relatie.nl',
  phone: '030 123 4567',
  quotation_terms: 'Prijzen zijn exclusief BTW. Levertijd circa 10 werkdagen na akkoord op de drukproef.',
};

export interface DocumentFixture {
  quotationId: number;
  quotationNoEmailId: number;
  quotationGermanId: number;
  orderId: number;
  invoiceId: number;
  creditNoteId: number;
  reverseChargeInvoiceId: number;
  proformaId: number;
  reverseChargeQuotationId: number;
  customerEmail: string;
}

const id = (row: { id: number | string } | undefined) => Number(row!.id);

export async function insertDocumentFixture(
  db: Kysely<ApltDatabase>,
  imageBaseUrl: string,
): Promise<DocumentFixture> {
  const brand = await db
    .insertInto('aplt_brands')
    .values({ code: 'acme', name: 'Acme', is_default: true, domain: 'acme-relatie.nl' })
    .returning('id')
    .executeTakeFirst();
  const brandId = id(brand);
  const logo = `data:image/png;base64,${makePng(96, [31, 78, 121], [255, 255, 255]).toString('base64')}`;
  await db
    .insertInto('aplt_cms_settings')
    .values(
      Object.entries({ ...COMPANY, logo_url: logo }).map(([key, value]) => ({
        brand_id: brandId,
        key,
        value,
      })),
    )
    .execute();

  await db.insertInto('aplt_suppliers').values({ code: '01', name: 'Midocean' }).execute();
  const pen = id(
    await db
      .insertInto('aplt_products')
      .values({
        sku: '100-01',
        supplier_code: '01',
        name_nl: 'Pen Classic',
        image_url: `${imageBaseUrl}/pen.png`,
      })
      .returning('id')
      .executeTakeFirst(),
  );
  const bag = id(
    await db
      .insertInto('aplt_products')
      .values({
        sku: '200-02',
        supplier_code: '01',
        name_nl: 'Katoenen tas',
        image_url: `${imageBaseUrl}/bag.png`,
      })
      .returning('id')
      .executeTakeFirst(),
  );

  const customerEmail = 'inkoop@bakkerij-jansen.nl';
  const customer = id(
    await db
      .insertInto('aplt_customers')
      .values({
        customer_number: 'K-1001',
        email: customerEmail,
        company: 'Bakkerij Jansen B.V.',
        first_name: 'Petra',
        last_name: 'Jansen',
        coc_number: '87654321',
        vat_number: 'NL987654321B01',
        address_line1: 'Dorpsstraat 5',
        postal_code: '1234 AB',
        city: 'Amersfoort',
        country: 'NL',
        language: 'nl',
        brand_id: brandId,
      })
      .returning('id')
      .executeTakeFirst(),
  );
  const noEmail = id(
    await db
      .insertInto('aplt_customers')
      .values({
        company: 'Zonder Mail V.O.F.',
        address_line1: 'Kerkplein 1',
        postal_code: '9999 ZZ',
        city: 'Ergens',
        language: 'en',
      })
      .returning('id')
      .executeTakeFirst(),
  );
  const belgian = id(
    await db
      .insertInto('aplt_customers')
      .values({
        email: 'achats@brussels-promo.be',
        company: 'Brussels Promo BV',
        vat_number: 'BE0123456789',
        address_line1: 'Wetstraat 100',
        postal_code: '1000',
        city: 'Brussel',
        country: 'BE',
      })
      .returning('id')
      .executeTakeFirst(),
  );

  // Quotation: 250 pens at 0.85 + 0.15 print = 250.00; 100 bags at 2.50 + 0.75 = 325.00 (both 21%);
  // 200 chocolate bars at 1.20 = 240.00 (9%). Setup 45.00 + 2 x 30.00 = 105.00 (21%).
  // VAT 21% over 680.00 = 142.80, 9% over 240.00 = 21.60; total 815 + 105 + 164.40 = 1084.40.
  const quotationValues = {
    customer_id: customer,
    brand_id: brandId,
    quotation_date: '2026-11-02',
    valid_until: '2026-12-02',
    reference: 'Kerstactie 2026',
    title: 'Relatiegeschenken kerstactie',
    subtotal: '815.00',
    setup_cost_total: '105.00',
    vat_total: '164.40',
    total: '1084.40',
    terms: COMPANY.quotation_terms,
  };
  const quotationId = await insertQuotation(db, 'Q-2026-0001', quotationValues, { pen, bag });
  const quotationNoEmailId = await insertQuotation(
    db,
    'Q-2026-0002',
    { ...quotationValues, customer_id: noEmail, reference: null, terms: null },
    { pen, bag },
  );
  const quotationGermanId = await insertQuotation(
    db,
    'Q-2026-0003',
    { ...quotationValues, language: 'de' },
    { pen, bag },
  );

  // Order: pens 250.00 + setup line 45.00 (21%), chocolate 240.00 (9%); goods subtotal 490.00.
  // VAT 21% over 295.00 = 61.95, 9% over 240.00 = 21.60 -> 83.55; total 618.55.
  const orderId = id(
    await db
      .insertInto('aplt_order_headers')
      .values({
        order_number: 'O-2026-0001',
        quotation_id: quotationId,
        customer_id: customer,
        brand_id: brandId,
        status: 'confirmed',
        order_date: '2026-11-03',
        expected_delivery_date: '2026-11-20',
        reference: 'Kerstactie 2026',
        subtotal: '490.00',
        setup_cost_total: '45.00',
        vat_total: '83.55',
        total: '618.55',
      })
      .returning('id')
      .executeTakeFirst(),
  );
  const orderLines = await db
    .insertInto('aplt_order_lines')
    .values(sameLines(pen).map((l) => ({ ...l, order_id: orderId })))
    .returning('id')
    .execute();

  // Invoice: the order's lines; VAT per rate stored as the core does (rounded once per rate).
  const invoiceId = id(
    await db
      .insertInto('aplt_invoice_headers')
      .values({
        invoice_number: 'F-2026-0001',
        document_type: 'invoice',
        order_id: orderId,
        customer_id: customer,
        brand_id: brandId,
        issue_date: '2026-11-04',
        due_date: '2026-12-04',
        delivery_date: '2026-11-20',
        payment_term_days: 30,
        reference: 'Kerstactie 2026',
        customer_email: customerEmail,
        customer_name: 'Petra Jansen',
        customer_company: 'Bakkerij Jansen B.V.',
        customer_vat_number: 'NL987654321B01',
        customer_country: 'NL',
        subtotal: '535.00',
        vat_total: '83.55',
        total: '618.55',
        credited_total: '65.40',
      })
      .returning('id')
      .executeTakeFirst(),
  );
  const invoiceLines = await db
    .insertInto('aplt_invoice_lines')
    .values(
      sameLines(pen).map((l, i) => {
        // Order-line columns the invoice lines do not have, left out should a line carry them.
        const line: typeof l &
          Partial<Record<'technique_id' | 'print_position_id' | 'logo_transaction_id', unknown>> = l;
        const { technique_id: _t, print_position_id: _p, logo_transaction_id: _lt, ...rest } = line;
        return {
          ...rest,
          invoice_id: invoiceId,
          order_line_id: orderLines[i]!.id,
          credited_quantity: i === 2 ? 50 : 0,
        };
      }),
    )
    .returning('id')
    .execute();
  await insertVat(db, invoiceId, [
    ['S', '21', '295.00', '61.95', null],
    ['S', '9', '240.00', '21.60', null],
  ]);

  // Credit note: 50 of the 200 chocolate bars back: 60.00 + 9% 5.40 = 65.40.
  const creditNoteId = id(
    await db
      .insertInto('aplt_invoice_headers')
      .values({
        invoice_number: 'C-2026-0001',
        document_type: 'credit_note',
        credited_invoice_id: invoiceId,
        customer_id: customer,
        brand_id: brandId,
        issue_date: '2026-11-10',
        due_date: '2026-11-10',
        payment_term_days: 0,
        customer_email: customerEmail,
        customer_company: 'Bakkerij Jansen B.V.',
        customer_name: 'Petra Jansen',
        customer_country: 'NL',
        subtotal: '60.00',
        vat_total: '5.40',
        total: '65.40',
        credit_reason: 'Beschadigd geleverd',
      })
      .returning('id')
      .executeTakeFirst(),
  );
  await db
    .insertInto('aplt_invoice_lines')
    .values({
      invoice_id: creditNoteId,
      credited_line_id: invoiceLines[2]!.id,
      line_no: 1,
      sku: 'CHOC-01',
      description: 'Chocoladereep met logo',
      quantity: 50,
      unit_price: '1.2000',
      vat_rate: '9',
      line_total: '60.00',
    })
    .execute();
  await insertVat(db, creditNoteId, [['S', '9', '60.00', '5.40', null]]);
  await db
    .insertInto('aplt_document_relations')
    .values({
      source_type: 'invoice',
      source_id: invoiceId,
      target_type: 'credit_note',
      target_id: creditNoteId,
      relation_type: 'credited',
    })
    .execute();

  // Intra-EU B2B supply to Belgium: reverse charged, no Dutch VAT.
  const reverseChargeInvoiceId = id(
    await db
      .insertInto('aplt_invoice_headers')
      .values({
        invoice_number: 'F-2026-0002',
        customer_id: belgian,
        brand_id: brandId,
        issue_date: '2026-11-05',
        due_date: '2026-12-05',
        customer_email: 'achats@brussels-promo.be',
        customer_company: 'Brussels Promo BV',
        customer_vat_number: 'BE0123456789',
        customer_country: 'BE',
        reverse_charge: true,
        vat_note: 'Intracommunautaire levering, art. 196 Richtlijn 2006/112/EG',
        subtotal: '500.00',
        vat_total: '0.00',
        total: '500.00',
      })
      .returning('id')
      .executeTakeFirst(),
  );
  await db
    .insertInto('aplt_invoice_lines')
    .values({
      invoice_id: reverseChargeInvoiceId,
      line_no: 1,
      sku: '200-02',
      description: 'Katoenen tas',
      quantity: 200,
      unit_price: '2.5000',
      vat_rate: '0',
      vat_category: 'AE',
      line_total: '500.00',
    })
    .execute();
  await insertVat(db, reverseChargeInvoiceId, [['AE', '0', '500.00', '0.00', 'BTW verlegd']]);

  // A proforma: printed like an invoice but no tax document (no e-invoice).
  const proformaId = id(
    await db
      .insertInto('aplt_invoice_headers')
      .values({
        invoice_number: 'P-2026-0001',
        document_type: 'proforma',
        customer_id: customer,
        brand_id: brandId,
        issue_date: '2026-11-06',
        due_date: '2026-11-13',
        payment_term_days: 7,
        subtotal: '100.00',
        vat_total: '21.00',
        total: '121.00',
      })
      .returning('id')
      .executeTakeFirst(),
  );
  await db
    .insertInto('aplt_invoice_lines')
    .values({
      invoice_id: proformaId,
      line_no: 1,
      description: 'Aanbetaling',
      quantity: 1,
      unit_price: '100.0000',
      line_total: '100.00',
    })
    .execute();
  await insertVat(db, proformaId, [['S', '21', '100.00', '21.00', null]]);

  // The same quotation for the Belgian customer: reverse charged, so no VAT stored (920.00).
  const reverseChargeQuotationId = await insertQuotation(
    db,
    'Q-2026-0004',
    { ...quotationValues, customer_id: belgian, vat_total: '0.00', total: '920.00' },
    { pen, bag },
  );

  return {
    reverseChargeQuotationId,
    proformaId,
    quotationId,
    quotationNoEmailId,
    quotationGermanId,
    orderId,
    invoiceId,
    creditNoteId,
    reverseChargeInvoiceId,
    customerEmail,
  };
}

/** Lines shared by the order and the invoice: pens with print, a setup line, chocolate at 9%. */
function sameLines(pen: number) {
  return [
    {
      line_no: 1,
      line_type: 'product',
      product_id: pen,
      sku: '100-01',
      description: 'Pen Classic',
      quantity: 250,
      unit_price: '0.8500',
      technique_code: 'TAMPON',
      technique_name: 'Tampondruk',
      print_position: 'Clip',
      print_colours: 1,
      print_unit_price: '0.1500',
      vat_rate: '21',
      line_total: '250.00',
    },
    {
      line_no: 2,
      line_type: 'setup',
      description: 'Opstartkosten tampondruk',
      quantity: 1,
      unit_price: '45.0000',
      vat_rate: '21',
      line_total: '45.00',
    },
    {
      line_no: 3,
      line_type: 'product',
      sku: 'CHOC-01',
      description: 'Chocoladereep met logo',
      quantity: 200,
      unit_price: '1.2000',
      vat_rate: '9',
      line_total: '240.00',
    },
  ];
}

async function insertQuotation(
  db: Kysely<ApltDatabase>,
  number: string,
  values: Record<string, unknown>,
  products: { pen: number; bag: number },
): Promise<number> {
  const quotationId = id(
    await db
      .insertInto('aplt_quotation_headers')
      .values({ quotation_number: number, ...values })
      .returning('id')
      .executeTakeFirst(),
  );
  const lines = await db
    .insertInto('aplt_quotation_lines')
    .values([
      {
        quotation_id: quotationId,
        line_no: 1,
        product_id: products.pen,
        sku: '100-01',
        description: 'Pen Classic',
        quantity: 250,
        unit_price: '0.8500',
        technique_code: 'TAMPON',
        technique_name: 'Tampondruk',
        print_position: 'Clip',
        print_colours: 1,
        print_unit_price: '0.1500',
        line_total: '250.00',
      },
      {
        quotation_id: quotationId,
        line_no: 2,
        product_id: products.bag,
        sku: '200-02',
        description: 'Katoenen tas',
        quantity: 100,
        unit_price: '2.5000',
        technique_code: 'ZEEF',
        technique_name: 'Zeefdruk',
        print_position: 'Voorzijde',
        print_area: '250x300',
        print_colours: 2,
        print_unit_price: '0.7500',
        line_total: '325.00',
      },
      {
        quotation_id: quotationId,
        line_no: 3,
        sku: 'CHOC-01',
        description: 'Chocoladereep met logo',
        quantity: 200,
        unit_price: '1.2000',
        vat_rate: '9',
        line_total: '240.00',
      },
    ])
    .returning('id')
    .execute();
  await db
    .insertInto('aplt_quotation_line_setup_costs')
    .values([
      {
        quotation_line_id: lines[0]!.id,
        description: 'Cliché tampondruk',
        quantity: 1,
        unit_cost: '45.0000',
        total: '45.00',
      },
      {
        quotation_line_id: lines[1]!.id,
        description: 'Zeefdrukraam per kleur',
        quantity: 2,
        unit_cost: '30.0000',
        total: '60.00',
      },
    ])
    .execute();
  return quotationId;
}

async function insertVat(
  db: Kysely<ApltDatabase>,
  invoiceId: number,
  rows: Array<[string, string, string, string, string | null]>,
): Promise<void> {
  await db
    .insertInto('aplt_invoice_vat_summary')
    .values(
      rows.map(([vat_category, vat_rate, taxable_amount, vat_amount, exemption_reason]) => ({
        invoice_id: invoiceId,
        vat_category,
        vat_rate,
        taxable_amount,
        vat_amount,
        exemption_reason,
      })),
    )
    .execute();
}
