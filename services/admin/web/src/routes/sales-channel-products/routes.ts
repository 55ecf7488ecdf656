import type { RouteObject } from 'react-router';
import { placeholderRoutes } from '../placeholder-routes';

/**
 * Pages under /app/sales-channel-products. SCAFFOLDING: a "coming" page until the area's real pages replace it
 * (see services/admin/web/README.md, "Adding a page").
 */
export const routes: RouteObject[] = placeholderRoutes('salesChannelProducts');
