// Types of server.mjs (plain Node, no build step) for the tests that import it.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { LRUCache } from 'lru-cache';

export interface PageCacheSettings {
  seconds: number;
  maxEntries: number;
  maxBytes: number;
  gatekeeper: boolean;
}

export function pageCacheSettings(env?: Record<string, string | undefined>): PageCacheSettings;

export function bypassReason(req: IncomingMessage, url: URL): string | undefined;

export function withPageCache(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
  settings: PageCacheSettings,
  admits?: (req: IncomingMessage) => boolean,
): { handle: RequestListener; cache: LRUCache<string, object> | undefined };

export function withoutRedirectBodies(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
): (req: IncomingMessage, res: ServerResponse) => unknown;

export function withGatekeeper(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
  settings: PageCacheSettings,
): (req: IncomingMessage, res: ServerResponse) => unknown;
