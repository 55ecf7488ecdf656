import type { RouteObject } from 'react-router';
import { RouteError } from '../components/common/error-boundary';
import { FullPageSpinner } from '../components/common/full-page-spinner';
import { PublicLayout } from '../components/layout/public-layout';
import { Shell } from '../components/layout/shell';
import { type SidebarItemId, sidebarItems } from '../navigation/sidebar-items';
import { routes as accessRequests } from '../routes/access-requests/routes';
import { routes as brandWizard } from '../routes/brand-wizard/routes';
import { routes as cms } from '../routes/cms/routes';
import { routes as cmsModules } from '../routes/cms-modules/routes';
import { routes as connectors } from '../routes/connectors/routes';
import { routes as creditNotes } from '../routes/credit-notes/routes';
import { routes as crm } from '../routes/crm/routes';
import { routes as customers } from '../routes/customers/routes';
import { routes as invoices } from '../routes/invoices/routes';
import { routes as menuManager } from '../routes/menu-manager/routes';
import { routes as orders } from '../routes/orders/routes';
import { routes as pageManager } from '../routes/page-manager/routes';
import { routes as parameters } from '../routes/parameters/routes';
import { routes as payments } from '../routes/payments/routes';
import { routes as productCopy } from '../routes/product-copy/routes';
import { routes as products } from '../routes/products/routes';
import { routes as quotations } from '../routes/quotations/routes';
import { routes as reports } from '../routes/reports/routes';
import { routes as salesChannelProducts } from '../routes/sales-channel-products/routes';
import { routes as settings } from '../routes/settings/routes';
import { routes as subscriptions } from '../routes/subscriptions/routes';
import { routes as suppliers } from '../routes/suppliers/routes';
import { routes as techniquePricing } from '../routes/technique-pricing/routes';
import { routes as translations } from '../routes/translations/routes';
import { FeatureGate } from './feature-gate';
import { ProtectedRoute } from './protected-route';
import { crumb, type RouteHandle } from './types';

/** The pages of every sidebar item: the type demands one entry per item of the license catalog. */
const areaRoutes: Record<SidebarItemId, RouteObject[]> = {
  '01-quotations': quotations,
  '02-aplt-orders': orders,
  '03-invoices': invoices,
  '05-credit-notes': creditNotes,
  '06-payments': payments,
  '04-customers': customers,
  '08-subscriptions': subscriptions,
  '07-reports': reports,
  '23-aplt-products': products,
  '25-technique-pricing': techniquePricing,
  '28-suppliers': suppliers,
  '29-product-copy': productCopy,
  '27-sales-channel-products': salesChannelProducts,
  '11-cms': cms,
  '13-cms-modules': cmsModules,
  '12-brand-wizard': brandWizard,
  '14-page-manager': pageManager,
  '15-menu-manager': menuManager,
  '26-translations': translations,
  '21-connectors': connectors,
  '22-access-requests': accessRequests,
  '30-parameters': parameters,
  '09-crm': crm,
};

/**
 * Every route of the panel (basename /app). Public pages in a card; everything else behind
 * sign-in in the shell. Each sidebar item's path is gated by its license (FeatureGate) and holds
 * its area's routes (`src/routes/<area>/routes.ts`); pages are loaded lazily, one chunk each.
 */
export const routeMap: RouteObject[] = [
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: 'login', lazy: () => import('../routes/login/login') },
          { path: 'forgot-password', lazy: () => import('../routes/forgot-password/forgot-password') },
          { path: 'reset-password', lazy: () => import('../routes/reset-password/reset-password') },
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          {
            element: <Shell />,
            children: [
              {
                // Errors of a page (a failed chunk, a thrown loader) show inside the shell.
                errorElement: <RouteError />,
                children: [
                  {
                    index: true,
                    handle: crumb('general.home'),
                    lazy: () => import('../routes/home/home'),
                  },
                  ...sidebarItems.map((item): RouteObject => ({
                    path: item.path.slice(1),
                    element: <FeatureGate item={item} />,
                    handle: { breadcrumb: (_m, t) => t(`nav.items.${item.label}`) } satisfies RouteHandle,
                    children: areaRoutes[item.id],
                  })),
                  {
                    path: 'settings',
                    handle: crumb('nav.items.settings'),
                    children: settings,
                  },
                  { path: '*', lazy: () => import('../routes/not-found/not-found') },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];
