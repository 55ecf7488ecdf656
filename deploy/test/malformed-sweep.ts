import { request } from 'node:http';
import type { ServiceName } from '@aplt/config';
import { isConnectionReset } from '@aplt/testing';

/**
 * The malformed-input sweep: every route a service registers (read from its own OpenAPI document
 * on its own port) gets invalid JSON, wrong types, NUL bytes, lone surrogates, 1e309, 5,000-deep
 * nesting and an oversize body, in its path parameters, query and body. Any 5xx or dropped
 * connection is a finding.
 */

export interface SweepTarget {
  service: ServiceName;
  port: number;
  /** Headers of a caller who passed the proxy (host, assertion, admin token) for this service. */
  headers: Record<string, string>;
}

export interface Finding {
  service: string;
  method: string;
  path: string;
  variant: string;
  status: number | string;
  body: string;
}

interface Probe {
  method: string;
  path: string;
  variant: string;
  body?: string | Buffer;
  contentType?: string;
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

/** The parts of an OpenAPI operation the sweep (and the feature-tag inventory) reads. */
export interface OpenApiOperation {
  tags?: string[];
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema } | undefined> };
}

const BAD_SEGMENTS: Array<[string, string]> = [
  ['nul', '%00'],
  ['surrogate', '%ED%A0%80'],
  ['huge-number', '1e309'],
  ['negative', '-1'],
  ['text', 'not-an-id'],
  ['long', 'a'.repeat(600)],
  ['dots', '..%2f..%2fetc%2fpasswd'],
];

const BAD_QUERY: Array<[string, string]> = [
  ['nul', '%00'],
  ['surrogate', '%ED%A0%80'],
  ['huge-number', '1e309'],
  ['array', 'a&$1=b'],
  ['empty', ''],
  ['long', 'x'.repeat(5000)],
];

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** A body where every property has the wrong type. */
function wrongTypes(schema: Schema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(schema?.properties ?? {})) {
    const t = Array.isArray(s.type) ? s.type[0] : s.type;
    out[k] =
      t === 'string'
        ? 12345
        : t === 'number' || t === 'integer'
          ? 'abc'
          : t === 'array'
            ? { a: 1 }
            : t === 'object'
              ? [1, 2]
              : true;
  }
  return out;
}

/** A body shaped like the schema, with `value` in every string (nested too). */
function withStrings(schema: Schema | undefined, value: unknown, depth = 0): unknown {
  if (!schema || depth > 4) return value;
  const s = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  if (t === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) out[k] = withStrings(p, value, depth + 1);
    return out;
  }
  if (t === 'array') return [withStrings(s.items, value, depth + 1)];
  if (t === 'string') return value;
  if (t === 'number' || t === 'integer') return typeof value === 'number' ? value : 1;
  if (t === 'boolean') return true;
  return value;
}

function probesFor(path: string, method: string, op: OpenApiOperation): Probe[] {
  const params: Array<{ name: string; in: string; schema?: Schema }> = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = params.filter((p) => p.in === 'query').map((p) => p.name);
  const fill = (value: string) => path.replace(/\{([^}]+)\}/g, () => value);
  const base = fill('1');
  const probes: Probe[] = [];
  if (pathParams.length)
    for (const [variant, v] of BAD_SEGMENTS)
      probes.push({ method, path: fill(v), variant: `path ${variant}` });
  for (const q of queryParams.length ? queryParams : ['q'])
    for (const [variant, v] of BAD_QUERY)
      probes.push({ method, path: `${base}?${q}=${v.replace('$1', q)}`, variant: `query ${q} ${variant}` });
  const schema: Schema | undefined = op.requestBody?.content?.['application/json']?.schema;
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) {
    const json = (variant: string, body: string) => probes.push({ method, path: base, variant, body });
    json('invalid json', '{"a":');
    json('array', '[1,2,3]');
    json('string', '"text"');
    json('null', 'null');
    json('empty object', '{}');
    json('wrong types', JSON.stringify(wrongTypes(schema)));
    json('nul strings', JSON.stringify(withStrings(schema, 'a\u0000b')));
    // JSON.stringify escapes a lone surrogate as \ud800; the parser turns it back into one.
    json('lone surrogates', JSON.stringify(withStrings(schema, 'a\ud800b')));
    json('huge numbers', JSON.stringify(withStrings(schema, 1)).replace(/:1([,}\]])/g, ':1e309$1'));
    json('deep nesting', `{"a":${deep(5000)}}`);
    probes.push({
      method,
      path: base,
      variant: 'oversize',
      body: `{"a":"${'x'.repeat(2_500_000)}"}`,
    });
    probes.push({
      method,
      path: base,
      variant: 'form body',
      body: 'a=1&b=2',
      contentType: 'application/x-www-form-urlencoded',
    });
  }
  return probes;
}

function send(target: SweepTarget, p: Probe): Promise<{ status: number | string; body: string }> {
  return new Promise((resolve) => {
    const body = p.body === undefined ? undefined : Buffer.from(p.body);
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: p.method,
        path: p.path,
        headers: {
          ...target.headers,
          accept: 'application/json',
          ...(body
            ? { 'content-type': p.contentType ?? 'application/json', 'content-length': String(body.length) }
            : {}),
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString().slice(0, 300) }),
        );
        res.on('error', (err) => resolve({ status: `response error ${err.message}`, body: '' }));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve({ status: 'timeout', body: '' });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A server that answers 413 before reading an oversize body may reset the upload: that is a refusal.
      if (p.variant === 'oversize' && isConnectionReset(err)) resolve({ status: 413, body: '' });
      else resolve({ status: `error ${err.code ?? err.message}`, body: '' });
    });
    req.end(body);
  });
}

/** Operations of the service's OpenAPI document (read on its own port, as an operator may). */
export async function operationsOf(
  port: number,
): Promise<Array<{ path: string; method: string; op: OpenApiOperation }>> {
  const res = await fetch(`http://127.0.0.1:${port}/docs/json`);
  if (!res.ok) throw new Error(`no OpenAPI document on port ${port}: ${res.status}`);
  const doc = (await res.json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
  const out: Array<{ path: string; method: string; op: OpenApiOperation }> = [];
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
        out.push({ path, method: method.toUpperCase(), op });
  return out;
}

export async function sweep(
  targets: SweepTarget[],
): Promise<{ requests: number; routes: number; findings: Finding[]; statuses: Record<string, number> }> {
  const findings: Finding[] = [];
  const statuses: Record<string, number> = {};
  let requests = 0;
  let routes = 0;
  for (const target of targets) {
    const ops = await operationsOf(target.port);
    routes += ops.length;
    const probes = ops.flatMap(({ path, method, op }) => probesFor(path, method, op));
    // A few at a time: enough to be quick, few enough not to trip every rate limit at once.
    for (let i = 0; i < probes.length; i += 6) {
      const batch = probes.slice(i, i + 6);
      const results = await Promise.all(batch.map((p) => send(target, p)));
      requests += batch.length;
      results.forEach((r, j) => {
        statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1;
        if (typeof r.status !== 'number' || r.status >= 500) {
          const p = batch[j]!;
          findings.push({
            service: target.service,
            method: p.method,
            path: p.path.slice(0, 120),
            variant: p.variant,
            ...r,
          });
        }
      });
    }
  }
  return { requests, routes, findings, statuses };
}
