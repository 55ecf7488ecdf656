import { CogSixTooth, House } from '@medusajs/icons';
import { Avatar, Button, clx, Skeleton, Text } from '@medusajs/ui';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useFeatures } from '../../hooks/api/features';
import { useTenant } from '../../hooks/api/tenant';
import { visibleSections } from '../../navigation/sidebar-items';
import { UserMenu } from './user-menu';

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  clx(
    'text-ui-fg-subtle transition-fg hover:bg-ui-bg-subtle-hover flex items-center gap-x-2 rounded-md py-0.5 pl-0.5 pr-2 outline-none',
    'focus-visible:shadow-borders-focus [&_svg]:text-ui-fg-subtle',
    isActive && 'bg-ui-bg-base shadow-elevation-card-rest text-ui-fg-base hover:bg-ui-bg-base',
  );

function NavItem({
  to,
  icon: Icon,
  children,
  end,
}: {
  to: string;
  icon: ComponentType<{ className?: string }>;
  children: ReactNode;
  end?: boolean;
}) {
  return (
    <NavLink to={to} end={end} className={linkClasses}>
      <span className="flex size-6 items-center justify-center">
        <Icon />
      </span>
      <Text size="small" weight="plus" leading="compact" className="truncate">
        {children}
      </Text>
    </NavLink>
  );
}

function TenantHeader() {
  const tenant = useTenant().data?.tenant;
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-x-3 px-3 py-3">
      <Avatar variant="squared" size="xsmall" fallback={(tenant?.name ?? '·').charAt(0).toUpperCase()} />
      <div className="flex min-w-0 flex-col">
        <Text size="small" weight="plus" leading="compact" className="truncate" data-testid="tenant-name">
          {tenant?.name ?? ' '}
        </Text>
        <Text size="xsmall" leading="compact" className="text-ui-fg-subtle">
          {t('general.appName')}
        </Text>
      </div>
    </div>
  );
}

/**
 * The sidebar: the licensed items of `/admin/features`, grouped like the license catalog's
 * feature groups; a group without a visible item has no header (spec 2, consumption rule 4).
 */
export function Sidebar() {
  const { t } = useTranslation();
  const features = useFeatures();
  const sections = visibleSections(features.data?.sidebar_items ?? []);

  return (
    <aside className="bg-ui-bg-subtle flex h-full w-full flex-col" data-testid="sidebar">
      <TenantHeader />
      <div className="border-ui-border-base mx-3 border-t border-dashed" />
      <nav
        className="flex flex-1 flex-col gap-y-4 overflow-y-auto px-3 py-3"
        aria-label={t('general.appName')}
        data-revision={features.data?.status.revision ?? ''}
        data-items={features.data?.sidebar_items.length ?? ''}
      >
        <div className="flex flex-col gap-y-0.5">
          <NavItem to="/" icon={House} end>
            {t('general.home')}
          </NavItem>
        </div>
        {features.isPending && (
          <div className="flex flex-col gap-y-2 px-1">
            {[0, 1, 2, 3, 4].map((i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
        )}
        {features.isError && (
          <div className="flex flex-col items-start gap-y-2 px-2" role="alert">
            <Text size="xsmall" className="text-ui-fg-error">
              {t('errors.features')}
            </Text>
            <Button size="small" variant="secondary" onClick={() => void features.refetch()}>
              {t('general.retry')}
            </Button>
          </div>
        )}
        {sections.map((section) => (
          <section key={section.group} data-section={section.group} className="flex flex-col gap-y-0.5">
            <Text
              size="xsmall"
              weight="plus"
              leading="compact"
              className="text-ui-fg-muted px-2 pb-1 uppercase tracking-wide"
            >
              {t(`nav.groups.${section.group}`)}
            </Text>
            <ul className="flex flex-col gap-y-0.5">
              {section.items.map((item) => (
                <li key={item.id} data-item={item.id}>
                  <NavItem to={item.path} icon={item.icon}>
                    {t(`nav.items.${item.label}`)}
                  </NavItem>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
      <div className="flex flex-col gap-y-1 border-t px-3 py-2">
        <NavItem to="/settings" icon={CogSixTooth}>
          {t('nav.items.settings')}
        </NavItem>
        <UserMenu />
      </div>
    </aside>
  );
}
