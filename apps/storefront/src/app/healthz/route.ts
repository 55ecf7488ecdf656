/** The fleet's start-up probe (deploy/fleet/run-fleet.ts waits for it). */
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ status: 'ok' });
}
