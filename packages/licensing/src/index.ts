export {
  featureCatalog,
  featureKeys,
  featureGroups,
  sidebarItemsFor,
  isFeatureKey,
  type FeatureKey,
  type FeatureGroup,
} from './catalog';
export { type FeatureSource, type FeatureStatus, allFeaturesSource, staticFeatureSource } from './source';
export {
  createLicenseClientFromEnv,
  allFeaturesClient,
  HttpLicenseClient,
  type LicenseClient,
  type LicenseClientOptions,
  type LicenseLogger,
} from './client';
export { LICENSE_CHANGED_CHANNEL, licenseChannel, type LicenseChangedMessage } from './channel';
export { readSnapshot, writeSnapshot, snapshotPath, type Snapshot } from './snapshot';
export { storefrontFeatures, type StorefrontFeatures } from './storefront';
export {
  invalidationChannel,
  publishInvalidation,
  subscribeInvalidations,
  type InvalidationSubscriber,
} from './invalidation';
