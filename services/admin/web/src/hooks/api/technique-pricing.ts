import type {
  CreateTierInput,
  techniqueDetail,
  techniqueList,
  tierResult,
  UpdateTierInput,
} from '@aplt/service-catalog/schemas/technique-pricing';
import type { z } from 'zod';
import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/** Techniques and their price scales (`/admin/aplt/technique-pricing`, catalog, feature `technique_pricing`). */
export type TechniqueList = Json<z.infer<typeof techniqueList>>;
export type Technique = TechniqueList['data'][number];
export type TechniqueDetail = Json<z.infer<typeof techniqueDetail>>;
export type Tier = TechniqueDetail['tiers'][number];
export type TierResult = Json<z.infer<typeof tierResult>>;
export type TechniqueQuery = {
  limit: number;
  offset: number;
  q?: string;
  supplier_code?: string;
  is_active?: string;
};

export const techniquesQueryKeys = queryKeysFactory('technique-pricing');

export const useTechniques = (query: TechniqueQuery) =>
  useAdminQuery<TechniqueList>('/admin/aplt/technique-pricing', query, {
    queryKey: techniquesQueryKeys.list(query),
    placeholderData: (previous) => previous,
  });

export const useTechnique = (id: string | number) =>
  useAdminQuery<TechniqueDetail>(`/admin/aplt/technique-pricing/${id}`, undefined, {
    queryKey: techniquesQueryKeys.detail(id),
  });

const invalidate = (id: string | number) => [techniquesQueryKeys.detail(id), techniquesQueryKeys.lists()];

export const useCreateTier = (id: string | number) =>
  useAdminMutation(
    (body: CreateTierInput) =>
      adminFetch<TierResult>(`/admin/aplt/technique-pricing/${id}/tiers`, 'POST', body),
    { invalidates: invalidate(id) },
  );

export const useUpdateTier = (id: string | number) =>
  useAdminMutation(
    ({ tierId, body }: { tierId: number; body: UpdateTierInput }) =>
      adminFetch<TierResult>(`/admin/aplt/technique-pricing/${id}/tiers/${tierId}`, 'PUT', body),
    { invalidates: invalidate(id) },
  );

export const useDeleteTier = (id: string | number) =>
  useAdminMutation(
    (tierId: number) => adminFetch<null>(`/admin/aplt/technique-pricing/${id}/tiers/${tierId}`, 'DELETE'),
    { invalidates: invalidate(id) },
  );
