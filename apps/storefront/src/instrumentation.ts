/**
 * Runs once when the server starts (Next's instrumentation hook). It loads the gatekeeper module so
 * its approval registry exists before the first request: server.mjs checks a visitor through it
 * before any shop page reaches Next (see src/lib/data/gatekeeper.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./lib/data/gatekeeper');
}
