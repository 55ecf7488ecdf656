import { TriangleRightMini } from '@medusajs/icons';
import { useTranslation } from 'react-i18next';
import { Link, type UIMatch, useMatches } from 'react-router';
import type { RouteHandle } from '../../router/types';

/** The topbar trail from the `handle.breadcrumb` of every matched route. */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  const crumbs = matches
    .filter((m) => m.handle?.breadcrumb)
    .map((m) => ({ label: m.handle!.breadcrumb!(m as UIMatch<unknown, RouteHandle>, t), path: m.pathname }))
    .filter((c) => c.label !== null && c.label !== undefined && c.label !== '');
  return (
    <ol
      className="text-ui-fg-muted txt-compact-small-plus flex min-w-0 select-none items-center"
      data-testid="breadcrumbs"
    >
      {crumbs.map((crumb, i) => {
        const last = i === crumbs.length - 1;
        return (
          <li key={crumb.path + i} className="flex min-w-0 items-center">
            {last ? (
              <span className="text-ui-fg-subtle truncate">{crumb.label}</span>
            ) : (
              <Link className="transition-fg hover:text-ui-fg-subtle truncate" to={crumb.path}>
                {crumb.label}
              </Link>
            )}
            {!last && <TriangleRightMini className="mx-1 shrink-0" />}
          </li>
        );
      })}
    </ol>
  );
}
