// A service started with runService (draining.test.ts): GET /slow answers only when the test
// writes `release-request` to stdin, and a real BullMQ mail worker whose job finishes only on
// `release-job`, so the test decides when work in flight ends.
import { createInterface } from 'node:readline';
import { loadEnv, redisEnv } from '@aplt/config';
import { createApp, runService } from '@aplt/http';
import { createRedis, startWorker } from '@aplt/queue';

const released = new Map<string, () => void>();
const waitFor = (line: string) =>
  new Promise<void>((resolve) => {
    released.set(line, resolve);
  });
createInterface({ input: process.stdin }).on('line', (line) => released.get(line.trim())?.());

const { REDIS_URL, REDIS_PREFIX } = loadEnv(redisEnv);
const connection = createRedis(REDIS_URL, { forWorker: true });
const app = await createApp({ name: 'drain', logLevel: 'info', docs: false });
app.get('/slow', async () => {
  process.stderr.write('request started\n');
  await waitFor('release-request');
  return { finished: true };
});
app.get('/fast', async () => ({ ok: true }));
const worker = startWorker(
  'mail',
  {
    'mail.send': async () => {
      process.stderr.write('job started\n');
      await waitFor('release-job');
      return 'sent';
    },
  },
  { connection, prefix: REDIS_PREFIX },
);
// As the services do: HTTP closes first, then the worker (after its running job), then Redis.
app.addHook('onClose', async () => {
  await worker.close();
  connection.disconnect();
});
await runService(app, { port: 0 });
const address = app.server.address();
process.stderr.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
