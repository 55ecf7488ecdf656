import { scriptJson } from '@aplt/http';

/**
 * /account/security: the signed-in user's second factor. Set up an authenticator app (password,
 * QR code, a code from the app, then the recovery codes shown once), renew the recovery codes or
 * go back to e-mailed codes. One document with an inline script over /api/auth/totp.
 */
export function securityPage(opts: { csrf: string; email: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign-in security</title>
<style>body{font:15px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1d2433;margin:0}header{background:#fff;border-bottom:1px solid #e3e5ea;padding:.7rem 2rem;display:flex;gap:1.2rem;align-items:center}main{max-width:40rem;margin:2rem auto;padding:0 1rem}section{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0001;padding:1.5rem 2rem;margin-bottom:1rem}h1{font-size:1.5rem;margin:0 0 1rem}h2{font-size:1.1rem;margin:0 0 .5rem}form{display:grid;gap:.6rem;max-width:22rem}input{font:inherit;padding:.45rem;border:1px solid #ccd;border-radius:6px}button{font:inherit;padding:.45rem .9rem;background:#1f4fd8;color:#fff;border:0;border-radius:6px;cursor:pointer;justify-self:start}button.secondary{background:#fff;color:#1f4fd8;border:1px solid #1f4fd8}button.danger{background:#b00020}[hidden]{display:none!important}#msg{color:#b00020;min-height:1.5em}.qr{display:flex;gap:1.5rem;align-items:center;flex-wrap:wrap}.qr img{width:180px;height:180px;border:1px solid #e3e5ea;border-radius:8px}code{background:#f0f2f5;padding:.1rem .35rem;border-radius:4px;word-break:break-all}ol#codes{columns:2;font:1.05rem ui-monospace,monospace;background:#f0f2f5;border-radius:8px;padding:1rem 1rem 1rem 2.5rem}.muted{color:#5b6476}</style></head>
<body><header><span>Signed in as <b id="who"></b></span><a href="/admin/licenses">Licenses</a></header>
<main><h1>Sign-in security</h1><p id="msg" role="alert"></p>
<section id="s-status"><h2>Authenticator app</h2><p id="status" class="muted">Loading…</p>
<div id="off-actions" hidden><p>Sign in with a code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, FreeOTP…) instead of a code by e-mail.</p>
<form id="f-setup"><label>Current password <input id="setup-password" type="password" autocomplete="current-password" required></label><button type="submit">Set up authenticator app</button></form></div>
<div id="on-actions" hidden><form id="f-renew"><label>Current password <input id="renew-password" type="password" autocomplete="current-password" required></label><button type="submit" class="secondary">New recovery codes</button></form>
<form id="f-remove" style="margin-top:1rem"><label>Current password <input id="remove-password" type="password" autocomplete="current-password" required></label><button type="submit" class="danger">Remove authenticator app</button></form></div></section>
<section id="s-enrol" hidden><h2>Scan this code with the app</h2><div class="qr"><img id="qr" alt="QR code for the authenticator app"><div><p>Or type this key into the app:</p><p><code id="secret"></code></p></div></div>
<form id="f-enable"><label>Code shown by the app <input id="enable-code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required></label><button type="submit">Turn on</button></form></section>
<section id="s-codes" hidden><h2>Your recovery codes</h2><p>Each code signs you in once if you lose the phone. Keep them somewhere safe: they are shown only now.</p><ol id="codes"></ol><button id="codes-done" type="button">I have saved them</button></section>
</main>
<script>
const csrf=${scriptJson(opts.csrf)};
const $=(id)=>document.getElementById(id), msg=(t)=>{$('msg').textContent=t||''};
$('who').textContent=${scriptJson(opts.email)};
async function api(path,body){const r=await fetch(path,{method:body?'POST':'GET',credentials:'same-origin',headers:{'content-type':'application/json','x-csrf-token':csrf},body:body?JSON.stringify(body):undefined});const j=await r.json().catch(()=>({}));if(!r.ok)throw new Error(j.message||('HTTP '+r.status));return j;}
async function render(){const s=await api('/api/auth/totp');
$('status').textContent=s.enabled?'On since '+new Date(s.enabled_at).toLocaleString()+'. '+s.recovery_codes_left+' recovery code'+(s.recovery_codes_left===1?'':'s')+' left.':'Off: you sign in with a code sent by e-mail.';
$('status').dataset.enabled=String(s.enabled);$('off-actions').hidden=s.enabled;$('on-actions').hidden=!s.enabled;}
function showCodes(codes){$('codes').replaceChildren(...codes.map(c=>Object.assign(document.createElement('li'),{textContent:c})));$('s-codes').hidden=false;$('s-enrol').hidden=true;}
const act=(fn)=>async(e)=>{e.preventDefault();msg('');try{await fn(e.target);}catch(err){msg(err.message);}};
$('f-setup').onsubmit=act(async(f)=>{const j=await api('/api/auth/totp/setup',{password:$('setup-password').value});f.reset();
$('qr').src='data:image/svg+xml;base64,'+btoa(j.qr_svg);$('secret').textContent=j.secret.replace(/(.{4})/g,'$1 ').trim();$('s-enrol').hidden=false;$('enable-code').focus();});
$('f-enable').onsubmit=act(async(f)=>{const j=await api('/api/auth/totp/enable',{code:$('enable-code').value.trim()});f.reset();showCodes(j.recovery_codes);await render();});
$('f-renew').onsubmit=act(async(f)=>{const j=await api('/api/auth/totp/recovery-codes',{password:$('renew-password').value});f.reset();showCodes(j.recovery_codes);await render();});
$('f-remove').onsubmit=act(async(f)=>{await api('/api/auth/totp/disable',{password:$('remove-password').value});f.reset();$('s-codes').hidden=true;await render();});
$('codes-done').onclick=()=>{$('codes').replaceChildren();$('s-codes').hidden=true;};
render().catch(err=>msg(err.message));
</script></body></html>`;
}
