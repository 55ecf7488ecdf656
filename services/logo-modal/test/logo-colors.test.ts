import { createAccessAppForTest } from '@aplt/service-access/testing';
import { startTestProxy, type TestProxy } from '@aplt/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cssColor, svgColors } from '../src/render/logo-colors';
import { inspectLogo } from '../src/render/logo-info';
import { type ModalHarness, multipart, startHarness } from './helpers';

const BLUE = '#0818C8';
const MAGENTA = '#C818A0';
const RED = '#D02020';
const GREEN = '#10A040';
const YELLOW = '#F0C800';

/** An anti-aliased raster logo drawn by sharp (librsvg) from SVG shapes on a transparent canvas. */
const raster = (shapes: string, opts: { background?: string; format?: 'png' | 'jpeg' } = {}) => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">${
    opts.background ? `<rect width="300" height="200" fill="${opts.background}"/>` : ''
  }${shapes}</svg>`;
  const img = sharp(Buffer.from(svg));
  return (opts.format === 'jpeg' ? img.jpeg({ quality: 80 }) : img.png()).toBuffer();
};

const rgbDistance = (a: string, b: string) => {
  const n = (h: string) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
  const [x, y] = [n(a), n(b)];
  return Math.hypot(x[0]! - y[0]!, x[1]! - y[1]!, x[2]! - y[2]!);
};

describe('logo colours (issue #16: screen printing is priced per colour)', () => {
  describe('raster logos, generated with sharp', () => {
    it('one colour: an anti-aliased circle on transparency is one colour, exactly', async () => {
      const png = await raster(`<circle cx="150" cy="100" r="80" fill="${BLUE}"/>`);
      expect((await inspectLogo('png', png)).colors).toEqual([BLUE]);
    });

    it('two colours: the blue and magenta blocks of the issue, and curves where they meet', async () => {
      const png = await raster(
        `<rect x="10" y="20" width="140" height="160" fill="${BLUE}"/>` +
          `<rect x="150" y="20" width="140" height="160" fill="${MAGENTA}"/>` +
          // Curved edges of each colour over the other: anti-aliased blue/magenta blends.
          `<circle cx="150" cy="100" r="40" fill="${BLUE}"/><ellipse cx="95" cy="100" rx="20" ry="50" fill="${MAGENTA}"/>`,
      );
      const { colors } = await inspectLogo('png', png);
      expect(colors).toHaveLength(2);
      expect(new Set(colors)).toEqual(new Set([BLUE, MAGENTA]));
    });

    it('four colours: overlapping anti-aliased shapes; an opaque background is the material, not a colour', async () => {
      const shapes =
        `<circle cx="70" cy="70" r="55" fill="${RED}"/><circle cx="150" cy="80" r="55" fill="${GREEN}"/>` +
        `<circle cx="230" cy="70" r="55" fill="${BLUE}"/><polygon points="60,190 150,110 240,190" fill="${YELLOW}"/>`;
      const png = await raster(shapes);
      expect(new Set((await inspectLogo('png', png)).colors)).toEqual(new Set([RED, GREEN, BLUE, YELLOW]));

      // The same logo as a JPEG on white: compression noise and the white background do not count.
      const jpeg = await raster(shapes, { background: '#FFFFFF', format: 'jpeg' });
      const fromJpeg = (await inspectLogo('jpeg', jpeg)).colors;
      expect(fromJpeg).toHaveLength(4);
      for (const want of [RED, GREEN, BLUE, YELLOW])
        expect(Math.min(...fromJpeg.map((c) => rgbDistance(c, want))), want).toBeLessThan(30);
    });

    it('a flat image is its own colour; a photo-like gradient is capped; a fully transparent one has none', async () => {
      const flat = await sharp({ create: { width: 60, height: 40, channels: 3, background: RED } })
        .png()
        .toBuffer();
      expect((await inspectLogo('png', flat)).colors).toEqual([RED]);
      const gradient = await raster(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/><stop offset="0.5" stop-color="#00ff00"/>' +
          '<stop offset="1" stop-color="#0000ff"/></linearGradient></defs><rect width="300" height="200" fill="url(#g)"/>',
      );
      const many = (await inspectLogo('png', gradient)).colors;
      expect(many.length).toBeGreaterThan(4);
      expect(many.length).toBeLessThanOrEqual(12);
      const clear = await sharp({
        create: { width: 20, height: 20, channels: 4, background: { r: 9, g: 9, b: 9, alpha: 0 } },
      })
        .png()
        .toBuffer();
      expect((await inspectLogo('png', clear)).colors).toEqual([]);
    });
  });

  describe('vector logos: fills and strokes', () => {
    const svg = (body: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">${body}</svg>`;

    it('one colour, whatever the spelling; none, transparent and url() are no colours', () => {
      expect(
        svgColors(
          svg(
            `<rect fill="${BLUE}" stroke="none"/><circle style="fill: rgb(8, 24, 200)"/>` +
              `<path fill="${BLUE.toLowerCase()}" stroke="transparent"/><g fill="url(#x)"/>`,
          ),
        ),
      ).toEqual([BLUE]);
      // Nothing painted explicitly: SVG's default black.
      expect(svgColors(svg('<path d="M0 0h10v10z"/>'))).toEqual(['#000000']);
    });

    it('two colours: a fill and a stroke, by name and by short hex', () => {
      expect(svgColors(svg('<rect fill="magenta" stroke="#00f"/><circle fill="#ff00ff"/>'))).toEqual([
        '#FF00FF',
        '#0000FF',
      ]);
    });

    it('four colours: attributes, style properties and gradient stops; fully transparent paints do not count', () => {
      const colors = svgColors(
        svg(
          `<rect style="fill:#D02020;stroke:navy"/><stop offset="0" stop-color="rgba(16,160,64,0.5)"/>` +
            `<text fill='${YELLOW}'>A</text><circle fill="#12345600"/><circle fill="rgba(1,2,3,0)"/>`,
        ),
      );
      expect(colors).toEqual([RED, '#000080', GREEN, YELLOW]);
    });

    it('reads CSS colour notations', () => {
      expect(cssColor('#abc')).toBe('#AABBCC');
      expect(cssColor('#AABBCCFF')).toBe('#AABBCC');
      expect(cssColor('rgb(100%, 0%, 50%)')).toBe('#FF0080');
      expect(cssColor('rgb(8 24 200 / 50%)')).toBe(BLUE);
      expect(cssColor('rebeccapurple')).toBe('#663399');
      expect(cssColor('currentColor')).toBeNull();
      expect(cssColor('#12')).toBeNull();
    });
  });

  describe('through the proxy', () => {
    let h: ModalHarness;
    let proxy: TestProxy;

    beforeAll(async () => {
      h = await startHarness();
      proxy = await startTestProxy({
        access: await createAccessAppForTest(h.fleet.registry),
        'logo-modal': h.app,
      });
    });
    afterAll(async () => {
      await proxy?.stop();
      await h?.close();
    });

    it('an uploaded two-colour PNG reports both colours, and the transaction keeps them', async () => {
      const tx = await proxy.request('modal.localhost', '/api/transactions', {
        method: 'POST',
        body: {
          basketId: '7b0f6b2e-4a51-4d0c-9d57-1f1f3b0e9a11',
          productSku: '900-01',
          variantSku: '900-01.003',
          techniqueCode: 'ZEEFDRUK',
          techniqueName: 'Zeefdruk',
          printArea: '250x250',
          quantity: 250,
          logoConfig: { scale: 0.6, x: 0.5, y: 0.4 },
        },
      });
      expect(tx.status, tx.text()).toBe(201);
      const id = tx.json().transaction_id as string;
      const png = await raster(
        `<rect x="10" y="20" width="140" height="160" fill="${BLUE}"/><rect x="150" y="20" width="140" height="160" fill="${MAGENTA}"/>`,
      );
      const m = multipart('logo.png', 'image/png', png);
      const up = await proxy.request('modal.localhost', `/api/transactions/${id}/logo`, {
        method: 'POST',
        body: m.body,
        headers: m.headers,
      });
      expect(up.status, up.text()).toBe(201);
      expect(up.json()).toMatchObject({ format: 'png', colors: [BLUE, MAGENTA] });
      const got = await proxy.request('modal.localhost', `/api/transactions/${id}`);
      expect(got.json().logo_config.colors).toEqual([BLUE, MAGENTA]);
    });
  });
});
