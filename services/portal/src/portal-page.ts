import { scriptJson } from '@aplt/http';

/**
 * A minimal page for people: log in, enter the e-mailed code, see and open tickets. It uses the
 * same JSON API as any client (fetch with application/json, same-origin cookie, the CSRF token).
 */
export function portalPage(opts: { csrf: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer portal</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}
form{display:grid;gap:.5rem;margin:1rem 0}input,textarea,select,button{font:inherit;padding:.4rem}
.hidden{display:none}#msg{color:#b00}li{margin:.3rem 0}</style></head>
<body><h1>Customer portal</h1><p id="msg"></p>
<form id="login"><input name="email" type="email" placeholder="E-mail" required autocomplete="username">
<input name="password" type="password" placeholder="Password" required autocomplete="current-password">
<button>Log in</button></form>
<form id="code" class="hidden"><input name="code" inputmode="numeric" pattern="[0-9]{6}" placeholder="6-digit code" required>
<button>Verify</button></form>
<section id="app" class="hidden"><p>Signed in as <b id="who"></b> <button id="logout">Log out</button></p>
<h2>Tickets</h2><ul id="tickets"></ul>
<form id="new"><input name="subject" placeholder="Subject" required><textarea name="description" placeholder="Description" required></textarea>
<select name="category"><option>question</option><option>bug</option><option>feature</option><option>other</option></select>
<button>Open ticket</button></form></section>
<script>
const $=(s)=>document.querySelector(s);
const csrf=${scriptJson(opts.csrf)};
const api=(m,p,b)=>fetch(p,{method:m,headers:b?{'content-type':'application/json','x-csrf-token':csrf}:{},body:b?JSON.stringify(b):undefined,credentials:'same-origin'}).then(async r=>({status:r.status,body:await r.json().catch(()=>({}))}));
const show=(id)=>{for(const x of ['login','code','app'])$('#'+x).classList.toggle('hidden',x!==id)};
async function refresh(){const c=await api('GET','/api/auth/check');
if(!c.body.authenticated){show(c.body.session_active?'code':'login');return}
show('app');$('#who').textContent=c.body.user.email+' ('+c.body.role+')';
const t=await api('GET','/api/support/tickets');$('#tickets').replaceChildren(...(t.body.tickets||[]).map(x=>{const li=document.createElement('li');
li.textContent=x.ticket_number+' ['+x.status+'] '+x.subject+(x.dev_project_branch?' -> '+x.dev_project_branch:'');return li}))}
$('#login').onsubmit=async(e)=>{e.preventDefault();const f=new FormData(e.target);
const r=await api('POST','/api/auth/login',{email:f.get('email'),password:f.get('password')});$('#msg').textContent=r.body.message||'';refresh()};
$('#code').onsubmit=async(e)=>{e.preventDefault();const r=await api('POST','/api/auth/verify-2fa',{code:new FormData(e.target).get('code')});
$('#msg').textContent=r.status===200?'':r.body.message;refresh()};
$('#logout').onclick=async()=>{await api('POST','/api/auth/logout',{});refresh()};
$('#new').onsubmit=async(e)=>{e.preventDefault();const f=new FormData(e.target);
await api('POST','/api/support/tickets',{subject:f.get('subject'),description:f.get('description'),category:f.get('category')});e.target.reset();refresh()};
refresh();
</script></body></html>`;
}
