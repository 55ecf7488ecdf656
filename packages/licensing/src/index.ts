export {
  featureCatalog,
  featureKeys,
  featureGroups,
  sidebarItemsFor,
  isFeatureKey,
  type FeatureKey,
  type FeatureGroup,
} from './catalog';
export { routeFeatures, featureForPath } from './route-features';
export { type FeatureSource, type FeatureStatus, allFeaturesSource, staticFeatureSource } from './source';
export { createLicenseClientFromEnv, allFeaturesClient, type LicenseClient } from './client';
