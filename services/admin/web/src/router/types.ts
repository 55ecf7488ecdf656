import type { ParseKeys, TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { UIMatch } from 'react-router';

/**
 * What a route may tell the shell through `handle` (react-router): its breadcrumb in the
 * topbar. A detail page can read its data from the match, e.g. the quotation number.
 *
 *   { path: ':id', lazy: () => import('./quotation-detail'), handle: { breadcrumb: (m) => m.params.id } }
 */
export interface RouteHandle {
  breadcrumb?: (match: UIMatch<unknown, RouteHandle>, t: TFunction) => ReactNode;
}

/** The common handle: a translated breadcrumb, e.g. `handle: crumb('nav.items.settings')`. */
export const crumb = (key: ParseKeys): RouteHandle => ({ breadcrumb: (_m, t) => t(key) });
