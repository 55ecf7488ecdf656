import { escapeHtml } from '@aplt/http';

/**
 * The branded access-denied page: small (the proxy copies it to the client; Traefik caps auth
 * bodies) and self-contained (no external assets: the visitor may reach nothing else).
 */
export function deniedPage(ip: string, loginUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Access denied</title><style>body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1d2433;display:grid;place-items:center;min-height:100vh;margin:0}main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0001;padding:2rem 2.5rem;max-width:28rem}h1{margin:0 0 .5rem;font-size:1.4rem}code{background:#eef0f4;padding:.1rem .4rem;border-radius:4px}a{display:inline-block;margin-top:1rem;background:#1f4fd8;color:#fff;padding:.5rem 1rem;border-radius:6px;text-decoration:none}</style></head><body><main><h1>Access denied</h1><p>This platform is only reachable from approved networks or after signing in.</p><p>Your IP address: <code id="ip">${escapeHtml(ip)}</code></p><p>Ask an administrator to whitelist it, or sign in.</p><a href="${escapeHtml(loginUrl)}">Sign in</a></main></body></html>`;
}
