import type { FastifyRequest } from 'fastify';

/**
 * The visitor's address in the spec's order: X-Forwarded-For, then X-Real-IP, then the socket.
 * Forwarded headers count only when a trusted proxy set them (a visitor must not pick the
 * address whose approval it wants): request.ip already applies TRUSTED_PROXIES to
 * X-Forwarded-For, and X-Real-IP is read only from a trusted peer.
 */
export function visitorIp(request: FastifyRequest, isTrustedPeer: (address: string) => boolean): string {
  if (request.headers['x-forwarded-for']) return request.ip;
  const realIp = request.headers['x-real-ip'];
  const peer = request.socket.remoteAddress ?? request.ip;
  if (typeof realIp === 'string' && realIp.trim() && isTrustedPeer(peer)) return realIp.trim();
  return request.ip;
}
