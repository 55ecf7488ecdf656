import { knownRoles } from './roles';
import { scriptJson } from '@aplt/http';

/**
 * /admin/users for access admins: the users with their roles, tenant and state; add a user with
 * a temporary password, change roles, disable or enable, set a temporary password. One document
 * with an inline script over the user API.
 */
export function usersPage(opts: { csrf: string; email: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Users</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:0;padding:1rem 2rem;color:#1d2433}table{border-collapse:collapse;margin:1rem 0}td,th{border-bottom:1px solid #ddd;padding:.3rem .6rem;text-align:left}tr.disabled td{color:#999}form{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}input{font:inherit;padding:.3rem}#msg{color:#b00020;min-height:1.4em}</style></head>
<body><header>Signed in as <b id="who"></b> · <a href="/admin/licenses">Licenses</a> · <a href="/account/security">Sign-in security</a></header><h1>Users</h1><p id="msg" role="alert"></p>
<form id="add"><input id="new-email" type="email" placeholder="e-mail" required><input id="new-password" type="password" placeholder="temporary password" autocomplete="new-password" required><input id="new-tenant" placeholder="tenant id (optional)"><span id="new-roles"></span><button id="add-btn" type="submit">Add user</button></form>
<table><thead><tr><th>E-mail</th><th>Roles</th><th>Tenant</th><th>State</th><th></th></tr></thead><tbody id="users"></tbody></table>
<script>
const csrf=${scriptJson(opts.csrf)}, roles=${scriptJson(knownRoles)};
const $=(id)=>document.getElementById(id), el=(tag,props={},...kids)=>{const e=Object.assign(document.createElement(tag),props);e.append(...kids);return e;};
$('who').textContent=${scriptJson(opts.email)};
$('new-roles').append(...roles.map(r=>el('label',{},el('input',{type:'checkbox',value:r,className:'new-role'}),r)));
async function api(path,init={}){const r=await fetch(path,{...init,credentials:'same-origin',headers:{...(init.body?{'content-type':'application/json'}:{}),'x-csrf-token':csrf}});const j=await r.json().catch(()=>({}));if(!r.ok)throw new Error(j.message||('HTTP '+r.status));return j;}
async function run(p){$('msg').textContent='';try{await p;}catch(err){$('msg').textContent=err.message;}await render();}
let version=0;
async function render(){const users=await api('/api/admin/users');$('users').replaceChildren(...users.map(u=>{
const boxes=roles.map(r=>{const cb=el('input',{type:'checkbox',checked:u.roles.includes(r)});cb.dataset.role=r;cb.onchange=()=>run(api('/api/admin/users/'+u.id,{method:'PATCH',body:JSON.stringify({roles:roles.filter(x=>x===r?cb.checked:u.roles.includes(x))})}));return el('label',{},cb,r);});
const toggle=el('button',{textContent:u.disabled?'Enable':'Disable',className:'toggle',onclick:()=>run(api('/api/admin/users/'+u.id,{method:'PATCH',body:JSON.stringify({disabled:!u.disabled})}))});
const reset=el('button',{textContent:'Set password',onclick:()=>{const p=prompt('Temporary password for '+u.email);if(p)run(api('/api/admin/users/'+u.id+'/password',{method:'POST',body:JSON.stringify({password:p})}));}});
const app=u.totp_enabled_at?el('button',{textContent:'Remove authenticator',className:'totp',onclick:()=>{if(confirm('Remove the authenticator app of '+u.email+'? Their next login sends a code by e-mail.'))run(api('/api/admin/users/'+u.id+'/totp',{method:'DELETE'}));}}):'';
const row=el('tr',{className:u.disabled?'disabled':''},el('td',{},u.email),el('td',{},...boxes),el('td',{},u.tenant_id||''),el('td',{className:'state'},(u.disabled?'disabled':u.must_change_password?'must change password':'active')+(u.totp_enabled_at?' · authenticator app':'')),el('td',{},toggle,' ',reset,' ',app));row.dataset.email=u.email;return row;}));$('users').dataset.version=String(++version);}
$('add').onsubmit=(e)=>{e.preventDefault();const body={email:$('new-email').value,password:$('new-password').value,roles:[...document.querySelectorAll('.new-role:checked')].map(c=>c.value)};if($('new-tenant').value)body.tenant_id=$('new-tenant').value;
run(api('/api/admin/users',{method:'POST',body:JSON.stringify(body)}).then(()=>{$('add').reset();}));};
render().catch(err=>{$('msg').textContent=err.message;});
</script></body></html>`;
}
