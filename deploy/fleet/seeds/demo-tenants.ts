import type { TenantKind } from '@aplt/db';

/** The demo deployment mirrors the spec's 11 databases: master template, PIM backend, 9 tenants. */
export const demoTenants: Array<{ id: string; kind: TenantKind; name: string }> = [
  { id: 'master', kind: 'master', name: 'Master template' },
  { id: 'pim', kind: 'pim', name: 'Product information' },
  { id: 'acme', kind: 'tenant', name: 'Acme Promotions' },
  { id: 'globex', kind: 'tenant', name: 'Globex Merchandise' },
  { id: 'initech', kind: 'tenant', name: 'Initech Gifts' },
  { id: 'umbrella', kind: 'tenant', name: 'Umbrella Relatiegeschenken' },
  { id: 'hooli', kind: 'tenant', name: 'Hooli Swag' },
  { id: 'stark', kind: 'tenant', name: 'Stark Promo' },
  { id: 'wayne', kind: 'tenant', name: 'Wayne Werbemittel' },
  { id: 'wonka', kind: 'tenant', name: 'Wonka Giveaways' },
  { id: 'tyrell', kind: 'tenant', name: 'Tyrell Branding' },
];

export const demoAdmin = { email: 'admin@aplt.localhost', password: 'Demo-Admin-2026!' };
