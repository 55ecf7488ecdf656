import type { RouteObject } from 'react-router';

/** Pages under /app/translations: a read-only list of the translatable texts, until their own routes are specified. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./translation-list') }];
