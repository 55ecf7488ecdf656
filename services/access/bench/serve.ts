// The servers of bench/access-validate.ts, in a process of their own as in production (the proxy
// and the access service do not share an event loop with the load generator). Prints one JSON
// line with the URLs and credentials, and cleans up on SIGINT/SIGTERM.
import { accessFixture, bareServer } from './fixture';

const fx = await accessFixture({ env: { ACCESS_STATIC_WHITELIST: '10.0.0.0/8' } });
const bare = await bareServer();
console.log(JSON.stringify({ url: fx.url, bareUrl: bare.url, session: fx.session, device: fx.device }));
const stop = async () => {
  await bare.close();
  await fx.cleanup();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
