import { scriptJson } from '@aplt/http';

/**
 * The login page: one document and the ALTCHA widget, which solves the proof-of-work CAPTCHA
 * in web workers as soon as the page loads (a fresh one after each attempt: a solution is spent
 * once). Its script walks the steps password -> second factor -> (forced password change) and
 * goes to the checked return URL.
 */
export function loginPage(opts: { csrf: string; returnTo: string | null; captchaWidgetUrl: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;display:grid;place-items:center;min-height:100vh;margin:0}form{background:#fff;padding:2rem;border-radius:12px;box-shadow:0 2px 12px #0001;width:22rem;display:grid;gap:.6rem}input{font:inherit;padding:.45rem;border:1px solid #ccd;border-radius:6px}button{font:inherit;padding:.5rem;background:#1f4fd8;color:#fff;border:0;border-radius:6px}[hidden]{display:none!important}#msg{color:#b00020;min-height:1.5em}altcha-widget{--altcha-max-width:100%;--altcha-border-radius:6px;--altcha-color-border:#ccd}a{color:#1f4fd8;font-size:.9rem}</style></head>
<body><main>
<form id="f-login"><h1>Sign in</h1>
<label>E-mail <input id="email" name="email" type="email" autocomplete="username" required></label>
<label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>
<label><input id="trust" type="checkbox"> Trust this device for 30 days</label>
<altcha-widget id="captcha" challengeurl="/api/auth/captcha" credentials="same-origin" auto="onload" hidefooter></altcha-widget>
<button id="login-btn" type="submit">Continue</button></form>
<form id="f-otp" hidden><h1>Enter your code</h1><p id="otp-info"></p>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<input id="recovery" name="recovery" autocomplete="off" placeholder="xxxxx-xxxxx" hidden>
<button id="otp-btn" type="submit">Verify</button><a id="use-recovery" href="#" hidden>Lost your phone? Use a recovery code</a></form>
<form id="f-change" hidden><h1>Choose a new password</h1><p>Your password has expired.</p>
<input id="new-password" type="password" autocomplete="new-password" required>
<button id="change-btn" type="submit">Save and sign in</button></form>
<p id="msg" role="alert"></p></main>
<script type="module" src="${opts.captchaWidgetUrl}"></script>
<script>
const csrf=${scriptJson(opts.csrf)}, returnTo=${scriptJson(opts.returnTo)};
let challengeId=null;
const $=(id)=>document.getElementById(id), msg=(t)=>{$('msg').textContent=t||''};
async function post(path, body){const r=await fetch(path,{method:'POST',headers:{'content-type':'application/json','x-csrf-token':csrf},body:JSON.stringify(body),credentials:'same-origin'});const j=await r.json().catch(()=>({}));if(!r.ok)throw new Error(j.message||('HTTP '+r.status));return j;}
const widget=$('captcha');let payload=null;
widget.addEventListener('statechange',(e)=>{payload=e.detail.state==='verified'?e.detail.payload:null;});
// The widget's payload is base64 JSON of the solution; it is spent by this attempt, so a new one is solved at once.
async function solve(){await customElements.whenDefined('altcha-widget');if(!payload)await widget.verify();if(!payload)throw new Error('The CAPTCHA could not be solved; reload the page');const p=JSON.parse(atob(payload));payload=null;widget.reset();widget.verify();return p;}
function done(j){location.href=j.redirect;}
function show(id){for(const f of ['f-login','f-otp','f-change'])$(f).hidden=f!==id;}
$('f-login').onsubmit=async(e)=>{e.preventDefault();msg('Checking you are human…');try{const captcha=await solve();const j=await post('/api/auth/login',{email:$('email').value,password:$('password').value,captcha,trust_device:$('trust').checked});challengeId=j.challenge_id;const app=j.channel==='authenticator';$('otp-info').textContent=app?'Enter the code from your authenticator app.':'We sent a code by '+j.channel+'.';$('use-recovery').hidden=!app;show('f-otp');$('code').focus();msg('');}catch(err){msg(err.message)}};
let recovery=false;
$('use-recovery').onclick=(e)=>{e.preventDefault();recovery=true;$('code').hidden=true;$('code').required=false;$('recovery').hidden=false;$('recovery').required=true;$('use-recovery').hidden=true;$('otp-info').textContent='Enter one of your recovery codes. Each works once.';$('recovery').focus();};
$('f-otp').onsubmit=async(e)=>{e.preventDefault();try{const factor=recovery?{recovery_code:$('recovery').value.trim()}:{code:$('code').value.trim()};const j=await post('/api/auth/verify',{challenge_id:challengeId,...factor,return_to:returnTo});if(j.step==='change_password'){show('f-change');msg('');}else done(j);}catch(err){msg(err.message)}};
$('f-change').onsubmit=async(e)=>{e.preventDefault();try{done(await post('/api/auth/change-password',{challenge_id:challengeId,new_password:$('new-password').value,return_to:returnTo}));}catch(err){msg(err.message)}};
</script></body></html>`;
}
