import type { CreditNoteInput } from '@aplt/service-documents/schemas/invoices';
import { keepPreviousData } from '@tanstack/react-query';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { type Invoice, invoicesQueryKeys } from './invoices';
import type { Page } from './quotations';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/* Credit notes (`/admin/aplt/credit-notes`, documents service, feature `credit_notes`). */

export type CreditNote = Invoice;
export type CreditNoteQuery = { limit: number; offset: number; q?: string; invoice_id?: string };

export const creditNotesQueryKeys = queryKeysFactory('credit-notes');

export const useCreditNotes = (query: CreditNoteQuery) =>
  useAdminQuery<Page<CreditNote>>('/admin/aplt/credit-notes', query, {
    queryKey: creditNotesQueryKeys.list(query),
    placeholderData: keepPreviousData,
  });

export const useCreditNote = (id: string | number) =>
  useAdminQuery<CreditNote>(`/admin/aplt/credit-notes/${id}`, undefined, {
    queryKey: creditNotesQueryKeys.detail(id),
  });

/** A full (no lines) or partial credit note of an invoice. */
export const useCreateCreditNote = () =>
  useAdminMutation(
    (body: CreditNoteInput) => adminFetch<CreditNote>('/admin/aplt/credit-notes', 'POST', body),
    {
      invalidates: (_data, body) => [
        invoicesQueryKeys.detail(String(body.invoice_id)),
        invoicesQueryKeys.lists(),
        creditNotesQueryKeys.all,
        ['admin', 'chain'],
        ['admin', 'reports'],
      ],
    },
  );
