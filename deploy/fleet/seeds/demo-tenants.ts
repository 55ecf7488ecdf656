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

/**
 * The demo tenants whose databases go to the second PostgreSQL server when the fleet has one
 * (FLEET_PG_SECOND; FLEET_PG_SECOND_TENANTS overrides the list): every other customer tenant, so
 * the demo has tenants on both servers. Master and PIM stay on the first, beside the control DB.
 */
export const secondServerTenants = ['globex', 'umbrella', 'stark', 'wonka'];

export const demoAdmin = { email: 'admin@aplt.localhost', password: 'Demo-Admin-2026!' };
