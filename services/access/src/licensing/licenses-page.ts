import { featureCatalog } from '@aplt/licensing';
import { scriptJson } from '@aplt/http';

/**
 * /admin/licenses: tenants with enabled/total counts, features grouped under headings with
 * per-group counts, toggles, bulk and clone actions and the last 20 audit entries. One document
 * with an inline script over the license API; read-only when the user may not write.
 */
export function licensesPage(opts: {
  csrf: string;
  email: string;
  canWrite: boolean;
  onlyTenant: string | null;
}): string {
  const catalog = featureCatalog.map((f) => ({ key: f.key, group: f.group }));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Feature licenses</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:0;display:grid;grid-template-columns:16rem 1fr;min-height:100vh;color:#1d2433}
nav{background:#1d2433;color:#fff;padding:1rem}nav button{display:flex;justify-content:space-between;width:100%;background:none;border:0;color:inherit;padding:.4rem;font:inherit;cursor:pointer;border-radius:4px}nav button.active{background:#3a4660}
main{padding:1rem 2rem}section{margin-bottom:1rem}h2{font-size:1rem;margin:.8rem 0 .3rem}label{display:inline-flex;gap:.3rem;width:15rem;padding:.15rem 0}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.2rem .6rem;text-align:left}#msg{color:#b00020}</style></head>
<body><nav><div>Signed in as <b id="who"></b> · <a href="/account/security">Sign-in security</a></div><h3>Tenants</h3><div id="tenants"></div></nav>
<main><h1 id="title">Feature licenses</h1><p id="summary"></p><p id="msg" role="alert"></p>
<div id="actions" hidden><select id="clone-source"></select> <button id="clone-btn">Clone from selected tenant</button></div>
<div id="groups"></div><h2>Last 20 changes</h2><table><thead><tr><th>When</th><th>Feature</th><th>Change</th><th>By</th><th>Reason</th></tr></thead><tbody id="audit"></tbody></table></main>
<script>
const csrf=${scriptJson(opts.csrf)}, canWrite=${scriptJson(opts.canWrite)}, onlyTenant=${scriptJson(opts.onlyTenant)}, catalog=${scriptJson(catalog)};
document.getElementById('who').textContent=${scriptJson(opts.email)};
let current=onlyTenant;
const $=(id)=>document.getElementById(id), el=(tag,props={},...kids)=>{const e=Object.assign(document.createElement(tag),props);e.append(...kids);return e;};
async function api(path,init={}){const r=await fetch(path,{...init,credentials:'same-origin',headers:{'content-type':'application/json','x-csrf-token':csrf,...(init.headers||{})}});const j=await r.json().catch(()=>({}));if(!r.ok)throw new Error(j.message||('HTTP '+r.status));return j;}
async function loadTenants(){const {tenants}=await api('/api/license/tenants');const list=onlyTenant?tenants.filter(t=>t.tenant_id===onlyTenant):tenants;current=current||(list[0]&&list[0].tenant_id);
$('tenants').replaceChildren(...list.map(t=>{const b=el('button',{className:t.tenant_id===current?'active':''},el('span',{},t.tenant_id),el('span',{className:'count'},t.feature_count+'/'+t.total_count));b.dataset.tenant=t.tenant_id;b.onclick=()=>{current=t.tenant_id;render();};return b;}));
$('clone-source').replaceChildren(...tenants.filter(t=>t.tenant_id!==current).map(t=>el('option',{value:t.tenant_id},t.tenant_id)));}
async function loadLicense(){const l=await api('/api/license/'+encodeURIComponent(current));$('title').textContent='Feature licenses: '+current+(canWrite?'':' (read-only)');$('summary').textContent=l.feature_count+' of '+l.total_count+' features enabled';$('summary').dataset.count=l.feature_count+'/'+l.total_count;
$('groups').replaceChildren(...Object.entries(l.groups).map(([g,v])=>{const total=v.enabled.length+v.disabled.length;const s=el('section',{},el('h2',{},g+' ('+v.enabled.length+'/'+total+')'));
if(canWrite){s.firstChild.append(' ',el('button',{textContent:'enable all',onclick:()=>bulk(g,true)}),' ',el('button',{textContent:'disable all',onclick:()=>bulk(g,false)}));}
for(const f of catalog.filter(c=>c.group===g)){const cb=el('input',{type:'checkbox',id:'toggle-'+f.key,checked:!!l.all_features[f.key],disabled:!canWrite});cb.onchange=()=>toggle(f.key,cb.checked);s.append(el('label',{},cb,f.key));}return s;}));}
async function loadAudit(){try{const a=await api('/api/license/'+encodeURIComponent(current)+'/audit?limit=20');$('audit').replaceChildren(...a.entries.map(e=>el('tr',{},el('td',{},new Date(e.created_at).toLocaleString()),el('td',{},e.feature),el('td',{},String(e.old_enabled)+' → '+String(e.new_enabled)),el('td',{},e.actor_email||''),el('td',{},e.reason||''))));}catch(err){$('audit').replaceChildren();}}
async function render(){$('msg').textContent='';$('actions').hidden=!canWrite;await loadTenants();if(!current)return;await Promise.all([loadLicense(),loadAudit()]);}
async function run(p){try{await p;}catch(err){$('msg').textContent=err.message;}await render();}
function toggle(feature,enabled){return run(api('/api/license/'+encodeURIComponent(current),{method:'PUT',body:JSON.stringify({feature,enabled,reason:'admin UI'})}));}
function bulk(group,enabled){return run(api('/api/license/'+encodeURIComponent(current)+'/bulk',{method:'PUT',body:JSON.stringify({features:catalog.filter(c=>c.group===group).map(c=>c.key),enabled,reason:'admin UI bulk'})}));}
$('clone-btn').onclick=()=>{const src=$('clone-source').value;if(src&&confirm('Replace '+current+' licenses with those of '+src+'?'))run(api('/api/license/'+encodeURIComponent(current)+'/clone',{method:'POST',body:JSON.stringify({source_tenant_id:src})}));};
render();
</script></body></html>`;
}
