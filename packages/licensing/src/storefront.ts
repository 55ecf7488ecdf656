import { type FeatureKey, featureKeys } from './catalog';

export interface StorefrontFeatures {
  /** True when the list is empty: every feature is on (spec 2, consumption rule 6). */
  allFeatures: boolean;
  features: FeatureKey[];
  hasFeature(feature: FeatureKey): boolean;
}

/**
 * The storefront's view of NEXT_PUBLIC_TENANT_FEATURES: a comma-separated list baked in at build
 * time; an empty or missing list means all-features mode.
 */
export function storefrontFeatures(
  list: string | undefined = process.env.NEXT_PUBLIC_TENANT_FEATURES,
): StorefrontFeatures {
  const listed = (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const allFeatures = listed.length === 0;
  const on = new Set(listed);
  return {
    allFeatures,
    features: allFeatures ? [...featureKeys] : featureKeys.filter((k) => on.has(k)),
    hasFeature: (feature) => allFeatures || on.has(feature),
  };
}
