export { BrowserPool, PoolBusyError, launchChromium, type BrowserPoolOptions } from './browser-pool';
