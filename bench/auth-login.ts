// Login p50 (POST /auth/user/emailpass over HTTP) beside a bare scrypt-kdf verify of the same hash,
// interleaved in the same run. Target: our overhead under 10 %.
import { request } from 'node:http';
import { authFixture, bareVerify, EMAIL, percentile, proxyHeaders } from '../services/auth/bench/fixture';

const PASSWORD = 'Bench-Password-2026';
const N = Number(process.env.N ?? 40);

function login(port: number, host: string): Promise<number> {
  const body = JSON.stringify({ email: EMAIL, password: PASSWORD });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/auth/user/emailpass',
        method: 'POST',
        // As the proxy forwards it after forward auth: with the identity assertion (renewed by the
        // signer before it expires, so a long run keeps passing).
        headers: {
          ...proxyHeaders(host),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const fx = await authFixture(1, PASSWORD);
try {
  // Warm up both paths (JIT, pools, the dummy hash).
  for (let i = 0; i < 3; i++) {
    await bareVerify(fx.hash, PASSWORD);
    if ((await login(fx.port, 't0.localhost')) !== 200) throw new Error('login failed');
  }
  const bare: number[] = [];
  const http: number[] = [];
  for (let i = 0; i < N; i++) {
    let t = performance.now();
    await bareVerify(fx.hash, PASSWORD);
    bare.push(performance.now() - t);
    t = performance.now();
    const status = await login(fx.port, 't0.localhost');
    http.push(performance.now() - t);
    if (status !== 200) throw new Error(`login answered ${status}`);
  }
  const b = percentile(bare, 50);
  const h = percentile(http, 50);
  console.log(`bare scrypt-kdf verify p50: ${b.toFixed(1)} ms (baseline, n=${N})`);
  console.log(
    `POST /auth/user/emailpass p50: ${h.toFixed(1)} ms (p95 ${percentile(http, 95).toFixed(1)} ms)`,
  );
  console.log(`overhead: ${(h - b).toFixed(1)} ms = ${(((h - b) / b) * 100).toFixed(1)} % (target < 10 %)`);
} finally {
  await fx.cleanup();
}
