// Invoice PDF with the warm page pool (load from the aplt DB + template + pool + date pinning)
// beside raw Puppeteer page.setContent + page.pdf of the same HTML on its own warm page, in the
// same run: p50/p99 one at a time, PDFs per second at concurrency C, and the browser's memory.
// Target: our overhead under 30 %. Run: npx tsx bench/documents-pdf-invoice.ts  (N=, C= to tune)
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type ApltDatabase, createPgDb, dropPgDatabase, ensurePgDatabase, migrateToLatest } from '@aplt/db';
import { BrowserPool, launchChromium } from '@aplt/browser';
import {
  footerTemplate,
  ImageEmbedder,
  loadPrintableDocument,
  PDF_OPTIONS,
  renderDocumentHtml,
  renderPdf,
  resolveChromiumPath,
} from '@aplt/service-documents/output';
import { insertDocumentFixture } from '../services/documents/test/output/document-fixtures';

const N = Number(process.env.N ?? 60);
const C = Number(process.env.C ?? 4);
const pg = {
  host: process.env.PG_HOST ?? '127.0.0.1',
  port: Number(process.env.PG_PORT ?? 5432),
  user: process.env.PG_USER ?? 'postgres',
};

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/**
 * Memory of a process and all its descendants (Chromium is a process tree), in MiB: RSS summed
 * (counts the shared binary once per process, so it overstates) and PSS (shared pages divided
 * among the processes that map them: the honest total).
 */
function treeMemory(rootPid: number): string {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  let rss = 0;
  let pss = 0;
  let processes = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      processes++;
    } catch {
      // gone
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return `PSS ${(pss / 1024).toFixed(0)} MiB (RSS summed ${(rss / 1024).toFixed(0)} MiB, ${processes} processes)`;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function throughput(total: number, concurrency: number, fn: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return total / ((performance.now() - t) / 1000);
}

const dbName = `bench_docpdf_${randomBytes(3).toString('hex')}`;
await ensurePgDatabase(pg, dbName);
const db = createPgDb<ApltDatabase>({ ...pg, database: dbName }, { max: 4 });
const executablePath = resolveChromiumPath(process.env.CHROMIUM_PATH);
const pool = new BrowserPool({ executablePath, size: C });
const raw = await launchChromium(executablePath);
try {
  await migrateToLatest(db, 'aplt');
  const fx = await insertDocumentFixture(db, 'http://127.0.0.1:9');
  const images = new ImageEmbedder(1000);
  const ours = async () =>
    renderPdf(pool, (await loadPrintableDocument(db, 'invoice', fx.invoiceId, images))!);

  // The baseline renders exactly the HTML our template produced, on pages kept open (warm).
  const doc = (await loadPrintableDocument(db, 'invoice', fx.invoiceId, images))!;
  const html = renderDocumentHtml(doc);
  const footer = footerTemplate(doc);
  const rawPages = await Promise.all(Array.from({ length: C }, () => raw.newPage()));
  let rr = 0;
  const bare = async () => {
    const page = rawPages[rr++ % C]!;
    await page.setContent(html, { waitUntil: 'load' });
    return page.pdf({ ...PDF_OPTIONS, footerTemplate: footer });
  };

  for (let i = 0; i < 5; i++) {
    await bare();
    await ours();
  }

  // The same document already loaded: what the pool, template and date pinning add on their own.
  const poolOnly = async () => renderPdf(pool, doc);
  const bareMs: number[] = [];
  const oursMs: number[] = [];
  const poolMs: number[] = [];
  for (let i = 0; i < N; i++) {
    bareMs.push(await timed(bare));
    oursMs.push(await timed(ours));
    poolMs.push(await timed(poolOnly));
  }
  const bareRate = await throughput(N, C, bare);
  const oursRate = await throughput(N, C, ours);
  const poolRate = await throughput(N, C, poolOnly);
  const b50 = percentile(bareMs, 50);
  const o50 = percentile(oursMs, 50);
  console.log(`invoice PDF, ${executablePath}, n=${N}, concurrency ${C}`);
  console.log(
    `raw page.setContent+page.pdf   p50 ${b50.toFixed(1)} ms  p99 ${percentile(bareMs, 99).toFixed(1)} ms  ${bareRate.toFixed(1)} PDFs/s (baseline)`,
  );
  console.log(
    `warm pool (DB load+HTML+PDF)   p50 ${o50.toFixed(1)} ms  p99 ${percentile(oursMs, 99).toFixed(1)} ms  ${oursRate.toFixed(1)} PDFs/s`,
  );
  console.log(
    `warm pool (HTML+PDF, doc held) p50 ${percentile(poolMs, 50).toFixed(1)} ms  p99 ${percentile(poolMs, 99).toFixed(1)} ms  ${poolRate.toFixed(1)} PDFs/s`,
  );
  console.log(
    `overhead p50 ${(o50 - b50).toFixed(1)} ms = ${(((o50 - b50) / b50) * 100).toFixed(1)} %, throughput ${(((bareRate - oursRate) / bareRate) * 100).toFixed(1)} % lower (target < 30 %)`,
  );
  console.log(
    `browser memory: pool ${treeMemory(pool.browserPid()!)} with ${C} pages; baseline browser ${treeMemory(raw.process()!.pid!)}`,
  );
} finally {
  await pool.close();
  await raw.close();
  await db.destroy();
  await dropPgDatabase(pg, dbName);
}
