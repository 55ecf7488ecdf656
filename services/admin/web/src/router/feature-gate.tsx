import { Outlet } from 'react-router';
import { ErrorPanel } from '../components/common/error-boundary';
import { SectionSpinner } from '../components/common/full-page-spinner';
import { NotLicensed } from '../components/common/not-licensed';
import { useFeatures } from '../hooks/api/features';
import type { SidebarItem } from '../navigation/sidebar-items';

/**
 * The pages of one sidebar item: shown while `/admin/features` lists the item, else the "not
 * licensed" page (also when the feature is switched off while the page is open).
 */
export function FeatureGate({ item }: { item: SidebarItem }) {
  const features = useFeatures();
  if (features.isPending) return <SectionSpinner />;
  if (features.isError) return <ErrorPanel error={features.error} onRetry={() => void features.refetch()} />;
  if (!features.data.sidebar_items.includes(item.id)) return <NotLicensed item={item} />;
  return <Outlet />;
}
