import { adminFetch, useAdminMutation } from './use-admin-query';

/** The AI add-on (`ai_assist`, catalog service): the admin assistant and quotation-line generation. */
export interface AiAnswer {
  answer: string;
  intents: string[];
  data: Record<string, unknown>;
  provider: string;
}
export interface GeneratedLine {
  request: string;
  product_id: number;
  sku: string;
  name: string;
  variant_id: number | null;
  variant_sku: string | null;
  colour: string | null;
  quantity: number;
  unit_price: string;
  technique: { code: string; name: string } | null;
  print_position: string | null;
  print_area: string | null;
  print_colours: number;
  print_unit_price: string;
  setup_cost: string;
  line_total: string;
}
export interface GeneratedLines {
  provider: string;
  lines: GeneratedLine[];
  unmatched: string[];
  total: string;
  currency: 'EUR';
}

export const useAiAssist = () =>
  useAdminMutation((question: string) => adminFetch<AiAnswer>('/admin/aplt/ai-assist', 'POST', { question }));

export const useGenerateLines = () =>
  useAdminMutation((text: string) =>
    adminFetch<GeneratedLines>('/admin/aplt/ai-generate-lines', 'POST', { text }),
  );
