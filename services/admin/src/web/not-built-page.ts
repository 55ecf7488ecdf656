import { escapeHtml } from '@aplt/http';

/** What `/app` shows when the panel has not been built: what to run, in Dutch and English. */
export function notBuiltPage(): string {
  const command = 'pnpm --filter @aplt/admin-web build';
  return `<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Admin panel not built</title>
<style>body{font:15px/1.5 system-ui,sans-serif;background:#f9fafb;color:#111827;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:32px 40px;max-width:640px}
h1{font-size:20px;margin:0 0 12px}code{background:#f3f4f6;border-radius:6px;padding:2px 6px}p{margin:8px 0}</style></head>
<body><main data-state="not-built">
<h1>Het beheerpaneel is nog niet gebouwd / The admin panel has not been built</h1>
<p>Bouw het met / Build it with <code>${escapeHtml(command)}</code>, or start the fleet with <code>bash deploy/start.sh</code>, which builds it when it is missing or stale. Then reload this page.</p>
<p>The service reads the build from <code>services/admin/web/dist</code> unless <code>ADMIN_WEB_DIST</code> names another folder.</p>
</main></body></html>`;
}
