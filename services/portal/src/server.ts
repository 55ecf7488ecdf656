import { createMysqlDb } from '@aplt/db';
import { runService } from '@aplt/http';
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const db = createMysqlDb({
  host: config.MYSQL_HOST,
  port: config.MYSQL_PORT,
  user: config.MYSQL_USER,
  password: config.MYSQL_PASSWORD,
  database: config.PORTAL_DB,
});
const app = await buildApp({ db }, config);
app.addHook('onClose', async () => {
  await db.destroy();
});
await runService(app, { port: config.PORT, host: config.HOST });
