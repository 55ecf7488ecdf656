import { sidebarSections } from './features.service';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The /app panel shell, its sidebar filtered by the tenant's licensed features. */
export function appShell(opts: { tenantName: string; sidebarItems: string[]; user: string | null }): string {
  const nav = sidebarSections(opts.sidebarItems)
    .map(
      (s) =>
        `<section data-section="${s.id}"><h3>${escape(s.title)}</h3><ul>${s.items
          .map(
            (i) =>
              `<li data-item="${i.id}"><a href="/app/${i.id}">${escape(i.id.replace(/^\d+-/, '').replace(/-/g, ' '))}</a></li>`,
          )
          .join('')}</ul></section>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(opts.tenantName)} admin</title><style>body{font:14px system-ui,sans-serif;margin:0;display:grid;grid-template-columns:14rem 1fr}nav{background:#1d2433;color:#fff;min-height:100vh;padding:1rem}nav a{color:#cfd6e6;text-decoration:none}h3{font-size:.8rem;text-transform:uppercase;color:#8a95ad;margin:1rem 0 .3rem}ul{list-style:none;margin:0;padding:0}main{padding:1rem 2rem}</style></head><body><nav>${nav}</nav><main><h1>${escape(opts.tenantName)}</h1>${opts.user ? `<p>Signed in as ${escape(opts.user)}</p>` : ''}</main></body></html>`;
}
