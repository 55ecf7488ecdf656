/**
 * `@aplt/service-documents/flow`: the sales flow (quotation, order, invoice, payment) as the
 * fleet's demo seed and the documents benchmark drive it, without HTTP.
 */
export { createQuotation } from '../quotations/quotation.service';
export { changeOrderStatus, convertQuotation } from '../orders/order.service';
export { invoiceOrder } from '../invoices/invoice.service';
export { registerPayment } from '../payments/payment.service';
