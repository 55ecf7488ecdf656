import { randomBytes } from 'node:crypto';
import { escapeHtml, scriptJson } from '@aplt/http';

/** A page with its own nonce: the CSP allows only its inline script and style and same-origin fetches. */
export interface Page {
  html: string;
  csp: string;
}

function page(title: string, body: string, script: string): Page {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;display:grid;place-items:center;min-height:100vh;margin:0;color:#1d2433}main{background:#fff;padding:2rem;border-radius:12px;box-shadow:0 2px 12px #0001;width:24rem}form{display:grid;gap:.6rem}label{display:grid;gap:.2rem}input{font:inherit;padding:.45rem;border:1px solid #ccd;border-radius:6px}button{font:inherit;padding:.5rem;background:#1f4fd8;color:#fff;border:0;border-radius:6px}button:disabled{opacity:.6}#msg{color:#b00020;min-height:1.5em}code{font-size:.85rem}</style></head>
<body><main>${body}</main><script nonce="${nonce}">${script}</script></body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}

/**
 * What a browser gets at /admin/queues without a valid admin session (status 401): a sign-in
 * form that does what Medusa's admin dashboard does - POST /auth/user/emailpass for a token, then
 * POST /auth/session to turn it into the `connect.sid` cookie - on this same host (the proxy routes
 * /auth to the auth service), then reloads the address it was opened with.
 */
export function signInPage(opts: { expired: boolean }): Page {
  const body = `<h1>Queue dashboard</h1>
<p>The job queues of the catalog (connectors, commerce sync, tenant update) are for platform operators.
Sign in with the e-mail address and password of your admin account on this backend.</p>
${opts.expired ? '<p id="expired" role="status">Your session has expired or does not belong to this host. Please sign in again.</p>' : ''}
<form id="sign-in"><label>E-mail <input id="email" name="email" type="email" autocomplete="username" required></label>
<label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
<button id="sign-in-btn" type="submit">Sign in</button></form>
<p id="msg" role="alert"></p>
<noscript><p>Signing in here needs JavaScript. Without it, send an admin token as
<code>Authorization: Bearer &lt;token&gt;</code> (from <code>POST /auth/user/emailpass</code>).</p></noscript>`;
  const script = `const $=(id)=>document.getElementById(id);
async function post(path, init){const r=await fetch(path,Object.assign({method:'POST',credentials:'same-origin'},init));const j=await r.json().catch(()=>({}));if(!r.ok){const e=new Error(j.message||('HTTP '+r.status));e.status=r.status;throw e;}return j;}
$('sign-in').onsubmit=async(e)=>{e.preventDefault();$('msg').textContent='';$('sign-in-btn').disabled=true;
try{const {token}=await post('/auth/user/emailpass',{headers:{'content-type':'application/json'},body:JSON.stringify({email:$('email').value,password:$('password').value})});
await post('/auth/session',{headers:{authorization:'Bearer '+token}});
location.replace(location.href);}
catch(err){$('msg').textContent=err.status===401?'Wrong e-mail address or password.':err.message;$('sign-in-btn').disabled=false;}};`;
  return page('Sign in - queue dashboard', body, script);
}

/** A browser on a tenant backend other than the master's: where the dashboard is (status 403). */
export function otherHostPage(masterUrl: string | undefined): Page {
  const where = masterUrl
    ? `<a id="master-link" href="${escapeHtml(masterUrl)}">${escapeHtml(masterUrl)}</a>`
    : 'the master tenant’s admin host';
  return page(
    'Queue dashboard - not on this host',
    `<h1>Queue dashboard</h1><p>The queues hold the jobs of every tenant, so the dashboard is for platform
operators only: open it on ${where} and sign in there with an admin account of the master tenant.</p>`,
    '',
  );
}

/** Signs out (DELETE /auth/session clears the cookie), then back to the dashboard's sign-in. */
export function signOutPage(base: string): Page {
  return page(
    'Signing out - queue dashboard',
    '<h1>Queue dashboard</h1><p id="msg" role="status">Signing out…</p>',
    `fetch('/auth/session',{method:'DELETE',credentials:'same-origin'}).then((r)=>{if(!r.ok)throw new Error('HTTP '+r.status);location.replace(${scriptJson(base)});}).catch((e)=>{document.getElementById('msg').textContent='Sign-out failed: '+e.message;});`,
  );
}
