import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from '@aplt/db';
import { startHttpReceiver, type HttpReceiver, testSecrets } from '@aplt/testing';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModalHarness, multipart, startHarness, vectorLogo } from './helpers';

const run = promisify(execFile);

describe('logo modal API', () => {
  let h: ModalHarness;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    h = await startHarness();
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  const inject = (opts: InjectOptions) => h.app.inject(opts);

  describe('GET /api/config-check/{sku}', () => {
    it('answers the spec fields for a base SKU and a variant SKU', async () => {
      for (const sku of ['900-01', '900-01.002']) {
        const res = await inject({ url: `/api/config-check/${sku}` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          available: true,
          hasSvg: true,
          hasCoordinates: true,
          sku,
          base_sku: '900-01',
          techniques: [
            {
              code: 'TRANSFER',
              name: 'Transferdruk full colour',
              print_area: '250x250',
              position: 'front',
              positions: 1,
            },
            { code: 'ZEEFDRUK', name: 'Zeefdruk', print_area: '250x250', position: 'front', positions: 1 },
          ],
        });
      }
    });

    it("gives a technique's own print size at a position over the position's size", async () => {
      const aplt = h.fleet.databases.aplt((await h.fleet.registry.get('master'))!);
      const setZeefdruk = (area: string | null, w: number | null, hh: number | null) =>
        sql`UPDATE aplt_product_techniques pt SET print_area = ${area}, max_width_mm = ${w}, max_height_mm = ${hh}
          FROM aplt_techniques t, aplt_products p
          WHERE t.id = pt.technique_id AND p.id = pt.product_id AND t.code = 'ZEEFDRUK' AND p.sku = '900-01'`.execute(
          aplt,
        );
      await setZeefdruk('200x150', 200, 150);
      try {
        const res = (await inject({ url: '/api/config-check/900-01' })).json();
        expect(
          res.techniques.map((t: { code: string; print_area: string }) => [t.code, t.print_area]),
        ).toEqual([
          ['TRANSFER', '250x250'],
          ['ZEEFDRUK', '200x150'],
        ]);
      } finally {
        await setZeefdruk(null, null, null);
      }
    });

    it('is not available without coordinates, nor for an unknown product', async () => {
      const noCoords = (await inject({ url: '/api/config-check/900-03' })).json();
      expect(noCoords).toMatchObject({
        available: false,
        hasSvg: true,
        hasCoordinates: false,
        techniques: [],
      });
      const unknown = (await inject({ url: '/api/config-check/999-99' })).json();
      expect(unknown).toMatchObject({
        available: false,
        hasSvg: false,
        hasCoordinates: false,
        base_sku: '999-99',
      });
    });

    it('rejects anything but NNN-NN and NNN-NN.NNN with 400', async () => {
      for (const bad of ['90001', '900-1', '900-01.1', '900-01.0001', 'abc-de', '900-01-02']) {
        const res = await inject({ url: `/api/config-check/${bad}` });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().type).toBe('invalid_data');
      }
    });

    it('no longer has /api/products/{sku}/has-svg', async () => {
      expect((await inject({ url: '/api/products/900-01/has-svg' })).statusCode).toBe(404);
    });
  });

  describe('CORS', () => {
    it('allows exactly the five configured origins', async () => {
      const origins = [h.config.MODAL_DEV_ORIGIN, ...h.config.MODAL_PRODUCTION_ORIGINS];
      expect(origins).toHaveLength(5);
      for (const origin of origins) {
        const res = await inject({ url: '/api/config-check/900-01', headers: { origin } });
        expect(res.headers['access-control-allow-origin']).toBe(origin);
      }
      const evil = await inject({
        url: '/api/config-check/900-01',
        headers: { origin: 'https://evil.example' },
      });
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await inject({
        method: 'OPTIONS',
        url: '/api/transactions',
        headers: { origin: origins[1] as string, 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origins[1]);
    });
  });

  async function createTx(extra: Record<string, unknown> = {}) {
    const res = await inject({
      method: 'POST',
      url: '/api/transactions',
      payload: {
        basketId: '7b0f6b2e-4a51-4d0c-9d57-1f1f3b0e9a11',
        productSku: '900-01',
        variantSku: '900-01.003',
        techniqueCode: 'ZEEFDRUK',
        techniqueName: 'Zeefdruk',
        printArea: '250x250',
        quantity: 250,
        logoConfig: { scale: 0.6, x: 0.5, y: 0.4 },
        source: 'test-shop',
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  describe('uploads', () => {
    it('rejects other types, oversized files and hostile SVG parts with a clear 4xx', async () => {
      const tx = await createTx();
      const up = (name: string, type: string, data: Buffer | string) => {
        const m = multipart(name, type, data);
        return inject({
          method: 'POST',
          url: `/api/transactions/${tx.transaction_id}/logo`,
          payload: m.body,
          headers: m.headers,
        });
      };
      const gif = await up('x.gif', 'image/gif', Buffer.from('GIF89a....'));
      expect(gif.statusCode).toBe(415);
      expect(gif.json()).toMatchObject({ type: 'unsupported_media_type' });
      const pdf = await up('x.svg', 'image/svg+xml', '%PDF-1.4 fake');
      expect(pdf.statusCode).toBe(415);
      const big = await up('big.png', 'image/png', Buffer.alloc(h.config.UPLOAD_MAX_BYTES + 10, 1));
      expect(big.statusCode).toBe(413);
      expect(big.json()).toMatchObject({ type: 'payload_too_large' });
      const doctype = await up(
        'x.svg',
        'image/svg+xml',
        '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
      );
      expect(doctype.statusCode).toBe(422);
      const broken = await up(
        'x.png',
        'image/png',
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20)]),
      );
      expect(broken.statusCode, broken.body).toBe(422);

      const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" onload="alert(1)">
<script>alert(2)</script><foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
<image xlink:href="https://tracker.example/p.png" width="5" height="5"/><rect width="50" height="50" fill="#FF0000" onclick="alert(3)" style="fill:url(https://evil.example/x)"/></svg>`;
      const ok = await up('hostile.svg', 'image/svg+xml', hostile);
      expect(ok.statusCode).toBe(201);
      const files = await readdir(join(h.fileDir, 'transactions', tx.transaction_id));
      const { readFile } = await import('node:fs/promises');
      const clean = await readFile(join(h.fileDir, 'transactions', tx.transaction_id, 'logo.svg'), 'utf8');
      expect(files).toContain('logo-original.svg');
      for (const bad of [
        '<script',
        'onload',
        'onclick',
        'foreignObject',
        'tracker.example',
        'evil.example',
      ]) {
        expect(clean, bad).not.toContain(bad);
      }
      expect(clean).toContain('<rect');
    });
  });

  describe('a transaction from creation to cancel', () => {
    let tx: { transaction_id: string };
    let added: Record<string, unknown>;

    it('creates a draft with file links, which answer 404 before generation', async () => {
      tx = await createTx({ callbackUrl: `${receiver.url}/hooks/logo?shop=1` });
      expect(tx).toMatchObject({
        basket_id: '7b0f6b2e-4a51-4d0c-9d57-1f1f3b0e9a11',
        product_sku: '900-01',
        quantity: 250,
        status: 'draft',
        files: {
          screenshot: `/api/transactions/${tx.transaction_id}/screenshot`,
          pdf: `/api/transactions/${tx.transaction_id}/pdf`,
          logo: `/api/transactions/${tx.transaction_id}/logo`,
        },
      });
      for (const f of ['files', 'modal', 'screenshot', 'pdf', 'logo', 'eps', 'download-zip']) {
        expect((await inject({ url: `/api/transactions/${tx.transaction_id}/${f}` })).statusCode, f).toBe(
          404,
        );
      }
    });

    it('uploads an SVG logo and reports its colours', async () => {
      const m = multipart('logo.svg', 'image/svg+xml', vectorLogo);
      const res = await inject({
        method: 'POST',
        url: `/api/transactions/${tx.transaction_id}/logo`,
        payload: m.body,
        headers: m.headers,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ format: 'svg', width: 200, height: 100 });
      expect(res.json().colors).toEqual(expect.arrayContaining(['#0A7F3F', '#FFD400', '#FFFFFF']));
    });

    it('adds to order: files generated, payload complete, signed callback delivered', async () => {
      const res = await inject({
        method: 'POST',
        url: `/api/transactions/${tx.transaction_id}/add-to-order`,
        headers: { host: 'modal.test:8443', 'x-forwarded-proto': 'https' },
        payload: {
          variantSku: '900-01.003',
          techniqueCode: 'ZEEFDRUK',
          logoConfig: { scale: 0.6, x: 0.5, y: 0.4 },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      added = res.json();
      const base = `https://modal.test:8443/api/transactions/${tx.transaction_id}`;
      expect(added).toMatchObject({
        transactionId: tx.transaction_id,
        basketId: '7b0f6b2e-4a51-4d0c-9d57-1f1f3b0e9a11',
        productSku: '900-01',
        variantSku: '900-01.003',
        selectedVariant: '900-01.003',
        selectedColor: 'Rood',
        quantity: 250,
        techniqueCode: 'ZEEFDRUK',
        techniqueName: 'Zeefdruk',
        printArea: '250x250',
        filesUrl: `${base}/files`,
        screenshotUrl: `${base}/screenshot`,
        pdfUrl: `${base}/pdf`,
        logoUrl: `${base}/logo`,
      });
      expect(added.logoConfig).toMatchObject({
        techniqueCode: 'ZEEFDRUK',
        printArea: '250x250',
        position: 'front',
        scale: 0.6,
      });

      const [cb] = await receiver.waitForRequests(1);
      expect(cb?.url).toBe('/hooks/logo?shop=1');
      expect(cb?.headers['content-type']).toBe('application/json');
      const ts = cb?.headers['x-aplt-timestamp'] as string;
      const expected = `sha256=${createHmac('sha256', testSecrets().CALLBACK_DEFAULT_SECRET).update(`${ts}.${cb?.body.toString()}`).digest('hex')}`;
      expect(cb?.headers['x-aplt-signature']).toBe(expected);
      expect(cb?.json()).toEqual({
        transactionId: tx.transaction_id,
        productSku: '900-01',
        variantSku: '900-01.003',
        selectedVariant: '900-01.003',
        selectedColor: 'Rood',
        quantity: 250,
        techniqueCode: 'ZEEFDRUK',
        techniqueName: 'Zeefdruk',
        printArea: '250x250',
        logoConfig: expect.objectContaining({ logoUrl: `${base}/logo`, techniqueCode: 'ZEEFDRUK' }),
        modalUrl: `${base}/modal`,
        filesUrl: `${base}/files`,
        screenshotUrl: `${base}/screenshot`,
        logoUrl: `${base}/logo`,
        downloadZipUrl: `${base}/download-zip`,
      });
      const got = (await inject({ url: `/api/transactions/${tx.transaction_id}` })).json();
      expect(got).toMatchObject({
        status: 'completed',
        technique_code: 'ZEEFDRUK',
        technique_name: 'Zeefdruk',
        quantity: 250,
      });
    });

    it('serves every file with its content type', async () => {
      const id = tx.transaction_id;
      const get = (p: string) => inject({ url: `/api/transactions/${id}/${p}` });
      const index = await get('files');
      expect(index.headers['content-type']).toMatch(/^application\/json/);
      expect(index.json()).toMatchObject({
        transaction_id: id,
        files: {
          screenshot: `/api/transactions/${id}/screenshot`,
          screenshot_hq: `/api/transactions/${id}/screenshot?quality=high`,
          logo_original: `/api/transactions/${id}/logo`,
          pdf: `/api/transactions/${id}/pdf`,
        },
      });
      const shot = await get('screenshot');
      expect(shot.headers['content-type']).toBe('image/png');
      expect((await sharp(shot.rawPayload).metadata()).width).toBe(800);
      const hq = await get('screenshot?quality=high');
      expect(hq.headers['content-type']).toBe('image/png');
      expect((await sharp(hq.rawPayload).metadata()).width).toBe(2400);
      const jpeg = await get('screenshot?format=jpeg');
      expect(jpeg.headers['content-type']).toBe('image/jpeg');
      expect((await sharp(jpeg.rawPayload).metadata()).format).toBe('jpeg');

      // The logo sits in the print area: the pixel at the area's centre is the logo's green, not the bag.
      const { data, info } = await sharp(shot.rawPayload).raw().toBuffer({ resolveWithObject: true });
      const px = (x: number, y: number) => {
        const i = (y * info.width + x) * info.channels;
        return [data[i], data[i + 1], data[i + 2]];
      };
      // Area 180..420 x 240..480 (template units); logo 60% of 240 wide = 144 x 72, centred at
      // (300, 336) -> 228..372 x 300..372; at 800/600 that is 304..496 x 400..496. Logo point (150, 20)
      // is its green background; just above the logo is the bag.
      expect(px(448, 419)).toEqual([0x0a, 0x7f, 0x3f]);
      // The bag is painted in the chosen variant's colour (900-01.003 Rood #C62828).
      expect(px(448, 395)).toEqual([0xc6, 0x28, 0x28]);

      const pdf = await get('pdf');
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toContain('korrekturabzug_900-01.003.pdf');
      const dir = await mkdtemp(join(tmpdir(), 'proof-'));
      try {
        await writeFile(join(dir, 'p.pdf'), pdf.rawPayload);
        const { stdout } = await run('pdftotext', ['-layout', join(dir, 'p.pdf'), '-']);
        expect(stdout).toContain('Korrekturabzug');
        expect(stdout).toContain('250 x 250 mm');
        expect(stdout).toContain('Zeefdruk (ZEEFDRUK)');
        expect(stdout).toContain('#0A7F3F');
        // Text of the logo is still text: the vector artwork was not rasterised.
        expect(stdout).toContain('VECTORLOGO');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }

      const logo = await get('logo');
      expect(logo.headers['content-type']).toBe('image/svg+xml');
      expect(logo.body).toBe(vectorLogo);
      const eps = await get('eps');
      expect(eps.headers['content-type']).toBe('application/postscript');
      expect(eps.body.startsWith('%!PS-Adobe-3.0 EPSF-3.0')).toBe(true);
      const zip = await get('download-zip');
      expect(zip.headers['content-type']).toBe('application/zip');
      expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
      const modal = await get('modal');
      expect(modal.headers['content-type']).toMatch(/^text\/html/);
      expect(modal.body).toContain(`/api/transactions/${id}/download-zip`);
    });

    it('generates the proof PDF on request with the spec filename', async () => {
      const res = await inject({
        method: 'POST',
        url: `/api/transactions/${tx.transaction_id}/generate-pdf`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: {
          filename: 'korrekturabzug_900-01.003.pdf',
          url: `/api/transactions/${tx.transaction_id}/pdf`,
        },
      });
    });

    it('cancels: status cancelled, every file deleted and answering 404', async () => {
      const res = await inject({ method: 'DELETE', url: `/api/transactions/${tx.transaction_id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Transaction cancelled' });
      expect((await inject({ url: `/api/transactions/${tx.transaction_id}` })).json().status).toBe(
        'cancelled',
      );
      for (const f of [
        'files',
        'modal',
        'screenshot',
        'screenshot?quality=high',
        'pdf',
        'logo',
        'eps',
        'download-zip',
      ]) {
        expect((await inject({ url: `/api/transactions/${tx.transaction_id}/${f}` })).statusCode, f).toBe(
          404,
        );
      }
      await expect(readdir(join(h.fileDir, 'transactions', tx.transaction_id))).rejects.toThrow();
    });
  });

  it('answers 404 for unknown and malformed transaction ids', async () => {
    for (const id of ['6f1c7c1e-0000-4000-8000-000000000000', 'nope']) {
      for (const f of ['', '/files', '/screenshot', '/pdf', '/logo', '/eps', '/download-zip', '/modal']) {
        expect((await inject({ url: `/api/transactions/${id}${f}` })).statusCode, `${id}${f}`).toBe(404);
      }
      expect((await inject({ method: 'DELETE', url: `/api/transactions/${id}` })).statusCode).toBe(404);
    }
  });

  it('accepts PNG and JPEG logos and renders them (no EPS for raster art)', async () => {
    const tx = await createTx({ productSku: '900-02', variantSku: undefined, techniqueCode: 'TAMPONDRUK' });
    const png = await sharp({ create: { width: 120, height: 40, channels: 4, background: '#D02020' } })
      .png()
      .toBuffer();
    const m = multipart('logo.png', 'image/png', png);
    const up = await inject({
      method: 'POST',
      url: `/api/transactions/${tx.transaction_id}/logo`,
      payload: m.body,
      headers: m.headers,
    });
    expect(up.statusCode).toBe(201);
    expect(up.json()).toMatchObject({ format: 'png', colors: ['#D02020'] });
    const res = await inject({
      method: 'POST',
      url: `/api/transactions/${tx.transaction_id}/add-to-order`,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      variantSku: '900-02',
      selectedVariant: '',
      selectedColor: '',
      printArea: '45x6',
    });
    expect(
      (await inject({ url: `/api/transactions/${tx.transaction_id}/logo` })).headers['content-type'],
    ).toBe('image/png');
    expect((await inject({ url: `/api/transactions/${tx.transaction_id}/eps` })).statusCode).toBe(404);
    const jpg = await sharp(png).flatten({ background: '#fff' }).jpeg().toBuffer();
    const tx2 = await createTx();
    const m2 = multipart('logo.jpg', 'image/jpeg', jpg);
    const up2 = await inject({
      method: 'POST',
      url: `/api/transactions/${tx2.transaction_id}/logo`,
      payload: m2.body,
      headers: m2.headers,
    });
    expect(up2.json()).toMatchObject({ format: 'jpeg' });
  });

  it('refuses a technique without coordinates and a variant of another product', async () => {
    const tx = await createTx();
    const m = multipart('logo.svg', 'image/svg+xml', vectorLogo);
    await inject({
      method: 'POST',
      url: `/api/transactions/${tx.transaction_id}/logo`,
      payload: m.body,
      headers: m.headers,
    });
    const wrongTech = await inject({
      method: 'POST',
      url: `/api/transactions/${tx.transaction_id}/add-to-order`,
      payload: { techniqueCode: 'LASER' },
    });
    expect(wrongTech.statusCode).toBe(422);
    const wrongVariant = await inject({
      method: 'POST',
      url: `/api/transactions/${tx.transaction_id}/add-to-order`,
      payload: { variantSku: '900-02.001' },
    });
    expect(wrongVariant.statusCode).toBe(422);
    const bad = await inject({ method: 'POST', url: '/api/transactions', payload: { productSku: 'nope' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('write rate limit', () => {
  let h: ModalHarness;
  beforeAll(async () => {
    h = await startHarness({ WRITE_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 429 with the error body after the configured writes per minute, reads stay open', async () => {
    const create = () =>
      h.app.inject({ method: 'POST', url: '/api/transactions', payload: { productSku: '900-01' } });
    for (let i = 0; i < 3; i++) expect((await create()).statusCode).toBe(201);
    const limited = await create();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ type: 'rate_limited' });
    expect((await h.app.inject({ url: '/api/config-check/900-01' })).statusCode).toBe(200);
  });
});

describe('abandoned drafts', () => {
  let h: ModalHarness;
  beforeAll(async () => {
    h = await startHarness({ DRAFT_TTL_HOURS: '24' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('cancels drafts older than the TTL and deletes their uploaded logos; recent and completed ones stay', async () => {
    const create = async () => {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/transactions',
        payload: { productSku: '900-01' },
      });
      const id = res.json().transaction_id as string;
      const m = multipart('logo.svg', 'image/svg+xml', vectorLogo);
      await h.app.inject({
        method: 'POST',
        url: `/api/transactions/${id}/logo`,
        payload: m.body,
        headers: m.headers,
      });
      return id;
    };
    const [old, recent, ordered] = [await create(), await create(), await create()];
    await h.app.inject({ method: 'POST', url: `/api/transactions/${ordered}/add-to-order`, payload: {} });
    const db = h.fleet.tenantDbs.get('master')?.aplt.db;
    await db
      ?.updateTable('aplt_logo_transactions')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000) })
      .where('id', 'in', [old, ordered])
      .execute();
    expect(await h.app.purgeStaleDrafts()).toBe(1);
    const status = async (id: string) =>
      (await h.app.inject({ url: `/api/transactions/${id}` })).json().status;
    expect(await status(old)).toBe('cancelled');
    expect(await status(recent)).toBe('draft');
    expect(await status(ordered)).toBe('completed');
    await expect(readdir(join(h.fileDir, 'transactions', old))).rejects.toThrow();
    expect(await readdir(join(h.fileDir, 'transactions', recent))).toContain('logo-original.svg');
  });
});
