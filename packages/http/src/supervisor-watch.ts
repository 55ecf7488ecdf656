import { env, loadEnv } from '@aplt/config';

export const supervisorEnv = {
  // Set by the fleet runner on every process it starts: its own pid. When the runner is gone
  // (killed with SIGKILL, a test worker that timed out), the process stops as on SIGTERM instead
  // of living on as an orphan that keeps its port, its database connections and its workers.
  FLEET_SUPERVISOR_PID: env.int(0),
};

/**
 * Calls `stop` once when the process that started this one has exited (this process's parent is
 * no longer that pid), checked every `intervalMs`. Does nothing when no supervisor is named.
 * Returns a function that ends the watch; the timer does not keep the process alive.
 */
export function stopWithSupervisor(
  stop: () => void,
  opts: { source?: Record<string, string | undefined>; intervalMs?: number } = {},
): () => void {
  const { FLEET_SUPERVISOR_PID } = loadEnv(supervisorEnv, opts.source ?? process.env);
  if (FLEET_SUPERVISOR_PID <= 0) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === FLEET_SUPERVISOR_PID) return;
    clearInterval(timer);
    stop();
  }, opts.intervalMs ?? 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
