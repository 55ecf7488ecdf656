import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import type { NavLabel } from '../navigation/sidebar-items';

/**
 * SCAFFOLDING ONLY: the route list of an area whose pages are not built yet: its index shows
 * the area's title and a "coming" state. An area's `routes.ts` replaces this call with its own
 * pages (list at `index`, detail at `:id`, ...); nothing else needs to change.
 */
export function placeholderRoutes(label: NavLabel): RouteObject[] {
  return [
    {
      index: true,
      lazy: async () => {
        const { AreaPlaceholder } = await import('../components/common/area-placeholder');
        function Placeholder() {
          const { t } = useTranslation();
          return <AreaPlaceholder title={t(`nav.items.${label}`)} />;
        }
        return { Component: Placeholder };
      },
    },
  ];
}
