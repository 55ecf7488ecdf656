import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TransactionRow } from '../transactions/transaction.repository';
import { type CallbackTargets, parseCallbackUrl } from './ssrf';

/** Header names of the signed callback; documented in the README for receivers. */
export const SIGNATURE_HEADER = 'x-aplt-signature';
export const TIMESTAMP_HEADER = 'x-aplt-timestamp';

/** HMAC-SHA256 over `<timestamp>.<body>`: binding the time stops a captured callback from being replayed later. */
export function signCallback(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export const fileUrls = (baseUrl: string, id: string) => {
  const base = `${baseUrl.replace(/\/$/, '')}/api/transactions/${id}`;
  return {
    modalUrl: `${base}/modal`,
    filesUrl: `${base}/files`,
    screenshotUrl: `${base}/screenshot`,
    pdfUrl: `${base}/pdf`,
    logoUrl: `${base}/logo`,
    epsUrl: `${base}/eps`,
    downloadZipUrl: `${base}/download-zip`,
  };
};

/** The spec's callback body (spec 3, server-to-server callback) with absolute URLs. */
export function callbackBody(tx: TransactionRow, baseUrl: string) {
  const urls = fileUrls(baseUrl, tx.id);
  const cfg = (tx.logo_config ?? {}) as Record<string, unknown>;
  const variantSku = tx.variant_sku ?? tx.product_sku;
  return {
    transactionId: tx.id,
    productSku: tx.product_sku,
    variantSku,
    selectedVariant: variantSku === tx.product_sku ? '' : variantSku,
    selectedColor: tx.selected_color ?? '',
    quantity: tx.quantity,
    techniqueCode: tx.technique_code,
    techniqueName: tx.technique_name,
    printArea: tx.print_area,
    logoConfig: { ...cfg, logoUrl: urls.logoUrl },
    modalUrl: urls.modalUrl,
    filesUrl: urls.filesUrl,
    screenshotUrl: urls.screenshotUrl,
    logoUrl: urls.logoUrl,
    downloadZipUrl: urls.downloadZipUrl,
  };
}

export class CallbackFailed extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * One delivery attempt: POST JSON, signed; any answer but 2xx is a failure the queue retries.
 * The connection goes only to an address `targets` accepts: IP literals are checked here (Node
 * connects to those without a lookup), names inside the agents' DNS lookup at connect time.
 */
export async function deliverCallback(opts: {
  url: string;
  body: unknown;
  secret: string;
  targets: CallbackTargets;
  timeoutMs: number;
  transactionId: string;
}): Promise<number> {
  const url = parseCallbackUrl(opts.url);
  opts.targets.assertLiteral(url);
  const payload = JSON.stringify(opts.body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        agent: https ? opts.targets.httpsAgent : opts.targets.httpAgent,
        timeout: opts.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'user-agent': 'aplt-logo-modal/1.2.0',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: signCallback(opts.secret, timestamp, payload),
          'x-aplt-transaction': opts.transactionId,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(status);
          else reject(new CallbackFailed(`callback answered HTTP ${status}`, status));
        });
      },
    );
    req.on('timeout', () => req.destroy(new CallbackFailed('callback timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}
