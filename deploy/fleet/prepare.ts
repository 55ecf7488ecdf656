/** `pnpm prepare:fleet`: migrate every database and seed the demo data, then exit (compose's one-shot job). */
import { prepareFleet } from './run-fleet';

prepareFleet({}).then(
  (notes) => {
    for (const n of notes) console.log(n);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
