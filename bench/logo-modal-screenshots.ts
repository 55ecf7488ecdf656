// Screenshot rendering per second (our renderer: SVG template rasterised, logo rasterised and
// placed in the print area, PNG encoded) beside a plain sharp composite of the same images
// (template and logo already rasterised to PNG: composite + PNG encode only), same run.
import { screenshotFixture } from '../services/logo-modal/bench/screenshot-fixture';

const SECONDS = Number(process.env.DURATION ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const WIDTH = 800;
const { plain, ours } = await screenshotFixture(WIDTH);

async function rate(fn: () => Promise<Buffer>): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await fn();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

await rate(plain);
await rate(ours); // warm-up
const rounds: Array<{ plain: number; ours: number }> = [];
for (let i = 0; i < 2; i++) rounds.push({ plain: await rate(plain), ours: await rate(ours) });
const avg = (k: 'plain' | 'ours') => rounds.reduce((s, r) => s + r[k], 0) / rounds.length;
console.log(`screenshot ${WIDTH}px PNG, concurrency ${CONCURRENCY}, ${SECONDS}s x ${rounds.length} rounds`);
console.log(`  baseline: plain sharp composite of pre-rasterised PNGs  ${avg('plain').toFixed(1)} /s`);
console.log(
  `  renderScreenshot (SVG template + SVG logo -> PNG)       ${avg('ours').toFixed(1)} /s  (${((100 * avg('ours')) / avg('plain')).toFixed(0)} % of baseline)`,
);
