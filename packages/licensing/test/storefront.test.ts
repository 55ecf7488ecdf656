import { describe, expect, it } from 'vitest';
import { featureKeys, storefrontFeatures } from '../src/index';

describe('storefront NEXT_PUBLIC_TENANT_FEATURES helper', () => {
  it('treats an empty or missing list as all-features mode', () => {
    for (const value of [undefined, '', ' , ']) {
      const f = storefrontFeatures(value);
      expect(f.allFeatures).toBe(true);
      expect(f.hasFeature('crm')).toBe(true);
      expect(f.features).toEqual(featureKeys);
    }
  });

  it('allows only listed features otherwise, ignoring unknown names', () => {
    const f = storefrontFeatures('quotations, products,teleport');
    expect(f.allFeatures).toBe(false);
    expect(f.hasFeature('quotations')).toBe(true);
    expect(f.hasFeature('crm')).toBe(false);
    expect(f.features).toEqual(['quotations', 'products']);
  });
});
