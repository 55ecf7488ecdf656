import {
  Adjustments,
  BuildingStorefront,
  ChartBar,
  Channels,
  Component,
  CreditCard,
  DocumentText,
  Key,
  Language,
  ListTree,
  Newspaper,
  Palette,
  Plug,
  Receipt,
  ReceiptPercent,
  ArrowPath,
  ShoppingCart,
  SquareTwoStack,
  Swatch,
  Tag,
  UserGroup,
  Users,
  Window,
} from '@medusajs/icons';
import type { ComponentType } from 'react';

/** The feature groups of the license catalog, in sidebar order (packages/licensing/src/catalog.ts). */
export const sidebarGroups = ['sales', 'products', 'content', 'system', 'addons'] as const;
export type SidebarGroup = (typeof sidebarGroups)[number];

export interface SidebarItem {
  /** The id `/admin/features` lists in `sidebar_items` when the feature is licensed. */
  id: string;
  /** The license feature that unlocks it. */
  feature: string;
  group: SidebarGroup;
  /** Path under /app (the router's basename). */
  path: string;
  /** Key under `nav.items` in the translations. */
  label: NavLabel;
  icon: ComponentType<{ className?: string }>;
}

export type NavLabel =
  | 'quotations'
  | 'orders'
  | 'invoices'
  | 'creditNotes'
  | 'payments'
  | 'customers'
  | 'subscriptions'
  | 'reports'
  | 'products'
  | 'techniquePricing'
  | 'suppliers'
  | 'productCopy'
  | 'salesChannelProducts'
  | 'cms'
  | 'cmsModules'
  | 'brandWizard'
  | 'pageManager'
  | 'menuManager'
  | 'translations'
  | 'connectors'
  | 'accessRequests'
  | 'parameters'
  | 'crm';

/**
 * Every sidebar item of the license catalog with its page: the one table the sidebar, the
 * router and the "not licensed" page read. Same ids, features and groups as the catalog (a test
 * in services/admin/test compares them), in catalog order.
 */
export const sidebarItems = [
  {
    id: '01-quotations',
    feature: 'quotations',
    group: 'sales',
    path: '/quotations',
    label: 'quotations',
    icon: DocumentText,
  },
  {
    id: '02-aplt-orders',
    feature: 'orders',
    group: 'sales',
    path: '/orders',
    label: 'orders',
    icon: ShoppingCart,
  },
  {
    id: '03-invoices',
    feature: 'invoices',
    group: 'sales',
    path: '/invoices',
    label: 'invoices',
    icon: Receipt,
  },
  {
    id: '05-credit-notes',
    feature: 'credit_notes',
    group: 'sales',
    path: '/credit-notes',
    label: 'creditNotes',
    icon: ReceiptPercent,
  },
  {
    id: '06-payments',
    feature: 'payments',
    group: 'sales',
    path: '/payments',
    label: 'payments',
    icon: CreditCard,
  },
  {
    id: '04-customers',
    feature: 'customers',
    group: 'sales',
    path: '/customers',
    label: 'customers',
    icon: Users,
  },
  {
    id: '08-subscriptions',
    feature: 'subscriptions',
    group: 'sales',
    path: '/subscriptions',
    label: 'subscriptions',
    icon: ArrowPath,
  },
  {
    id: '07-reports',
    feature: 'reports',
    group: 'sales',
    path: '/reports',
    label: 'reports',
    icon: ChartBar,
  },
  {
    id: '23-aplt-products',
    feature: 'products',
    group: 'products',
    path: '/products',
    label: 'products',
    icon: Tag,
  },
  {
    id: '25-technique-pricing',
    feature: 'technique_pricing',
    group: 'products',
    path: '/technique-pricing',
    label: 'techniquePricing',
    icon: Swatch,
  },
  {
    id: '28-suppliers',
    feature: 'suppliers',
    group: 'products',
    path: '/suppliers',
    label: 'suppliers',
    icon: BuildingStorefront,
  },
  {
    id: '29-product-copy',
    feature: 'product_copy',
    group: 'products',
    path: '/product-copy',
    label: 'productCopy',
    icon: SquareTwoStack,
  },
  {
    id: '27-sales-channel-products',
    feature: 'sales_channel_products',
    group: 'products',
    path: '/sales-channel-products',
    label: 'salesChannelProducts',
    icon: Channels,
  },
  { id: '11-cms', feature: 'cms', group: 'content', path: '/cms', label: 'cms', icon: Newspaper },
  {
    id: '13-cms-modules',
    feature: 'cms_modules',
    group: 'content',
    path: '/cms-modules',
    label: 'cmsModules',
    icon: Component,
  },
  {
    id: '12-brand-wizard',
    feature: 'brand_wizard',
    group: 'content',
    path: '/brand-wizard',
    label: 'brandWizard',
    icon: Palette,
  },
  {
    id: '14-page-manager',
    feature: 'page_manager',
    group: 'content',
    path: '/page-manager',
    label: 'pageManager',
    icon: Window,
  },
  {
    id: '15-menu-manager',
    feature: 'menu_manager',
    group: 'content',
    path: '/menu-manager',
    label: 'menuManager',
    icon: ListTree,
  },
  {
    id: '26-translations',
    feature: 'translations',
    group: 'content',
    path: '/translations',
    label: 'translations',
    icon: Language,
  },
  {
    id: '21-connectors',
    feature: 'connectors',
    group: 'system',
    path: '/connectors',
    label: 'connectors',
    icon: Plug,
  },
  {
    id: '22-access-requests',
    feature: 'access_requests',
    group: 'system',
    path: '/access-requests',
    label: 'accessRequests',
    icon: Key,
  },
  {
    id: '30-parameters',
    feature: 'parameters',
    group: 'system',
    path: '/parameters',
    label: 'parameters',
    icon: Adjustments,
  },
  { id: '09-crm', feature: 'crm', group: 'addons', path: '/crm', label: 'crm', icon: UserGroup },
] as const satisfies readonly SidebarItem[];

export type SidebarItemId = (typeof sidebarItems)[number]['id'];

/** The licensed items grouped for the sidebar; a group without a visible item is left out (spec 2, rule 4). */
export function visibleSections(visibleIds: readonly string[]) {
  const visible = new Set(visibleIds);
  return sidebarGroups
    .map((group) => ({ group, items: sidebarItems.filter((i) => i.group === group && visible.has(i.id)) }))
    .filter((s) => s.items.length > 0);
}

/** The catalog's features that have no page of their own (add-ons and dunning), in catalog order. */
export const featuresWithoutItem = [
  { feature: 'dunning', group: 'sales', label: 'dunning' },
  { feature: 'designer_2d', group: 'addons', label: 'designer2d' },
  { feature: 'designer_external', group: 'addons', label: 'designerExternal' },
  { feature: 'quotation_source_filter', group: 'addons', label: 'quotationSourceFilter' },
  { feature: 'purchase_orders', group: 'addons', label: 'purchaseOrders' },
  { feature: 'picking_lists', group: 'addons', label: 'pickingLists' },
  { feature: 'shipments', group: 'addons', label: 'shipments' },
  { feature: 'ai_assist', group: 'addons', label: 'aiAssist' },
] as const satisfies ReadonlyArray<{ feature: string; group: SidebarGroup; label: string }>;

export const sidebarItemById = (id: string): SidebarItem | undefined => sidebarItems.find((i) => i.id === id);
