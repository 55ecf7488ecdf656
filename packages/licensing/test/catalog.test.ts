import { describe, expect, it } from 'vitest';
import { featureCatalog, featureGroups, sidebarItemsFor } from '../src';

describe('feature catalog', () => {
  it('has the 31 features of spec 2 in five groups with the given counts', () => {
    expect(featureCatalog).toHaveLength(31);
    const counts = Object.fromEntries(
      featureGroups.map((g) => [g, featureCatalog.filter((f) => f.group === g).length]),
    );
    expect(counts).toEqual({ sales: 9, products: 5, content: 6, system: 3, addons: 8 });
  });

  it('maps sidebar items only for enabled features that have one', () => {
    expect(sidebarItemsFor(['quotations', 'dunning', 'crm'])).toEqual(['01-quotations', '09-crm']);
  });
});
