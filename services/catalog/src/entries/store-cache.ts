/**
 * `@aplt/service-catalog/store-cache`: the Redis channel on which catalog replicas drop each
 * other's store cache, and its publisher.
 */
export { storeCacheChannel, storeChangedPublisher } from '../store/store-cache-events';
