import { loadSharp } from './sharp';
import { cssNamedColors } from './css-named-colors';

/*
 * The colours a logo is printed in, as screen printing prices them (one screen per colour).
 * Issue #16: a blue and a magenta block were reported as one colour, because a raster logo was
 * given only sharp's dominant colour.
 */

/** At most this many colours are reported: beyond it a logo is full colour anyway. */
export const MAX_LOGO_COLORS = 12;

const toHex = (rgb: number) => `#${rgb.toString(16).padStart(6, '0').toUpperCase()}`;
const hexOf = (r: number, g: number, b: number) =>
  toHex(
    (Math.max(0, Math.min(255, Math.round(r))) << 16) |
      (Math.max(0, Math.min(255, Math.round(g))) << 8) |
      Math.max(0, Math.min(255, Math.round(b))),
  );

// ---------------------------------------------------------------------------------------------
// Vector logos: the paints of fills and strokes (and gradient stops), in any CSS notation.

const PAINT =
  /(?<![\w-])(?:fill|stroke|stop-color|flood-color)\s*(?:=\s*["']|:)\s*(#[0-9a-f]{3,8}\b|rgba?\([^)]*\)|[a-z]+)/gi;

/** One CSS colour as #RRGGBB; null for none, transparent, url(), currentColor and unknown words. */
export function cssColor(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (v.startsWith('#')) {
    const h = v.slice(1);
    if (!/^[0-9a-f]+$/.test(h)) return null;
    if (h.length === 3 || h.length === 4) {
      if (h.length === 4 && h[3] === '0') return null;
      return `#${h[0]}${h[0]}${h[1]}${h[1]}${h[2]}${h[2]}`.toUpperCase();
    }
    if (h.length === 6 || h.length === 8) {
      if (h.length === 8 && h.slice(6) === '00') return null;
      return `#${h.slice(0, 6)}`.toUpperCase();
    }
    return null;
  }
  const fn = /^rgba?\(([^)]*)\)$/.exec(v);
  if (fn) {
    const parts = fn[1]!
      .replace(/\s*\/\s*/, ',')
      .split(/[\s,]+/)
      .filter(Boolean);
    if (parts.length < 3) return null;
    const channel = (p: string) =>
      p.endsWith('%') ? (Number.parseFloat(p) * 255) / 100 : Number.parseFloat(p);
    const [r, g, b] = parts.slice(0, 3).map(channel) as [number, number, number];
    if (![r, g, b].every(Number.isFinite)) return null;
    const alpha =
      parts[3] === undefined ? 1 : Number.parseFloat(parts[3]) / (parts[3].endsWith('%') ? 100 : 1);
    if (alpha === 0) return null;
    return hexOf(r, g, b);
  }
  return cssNamedColors.get(v) ?? null;
}

/**
 * Distinct colours a vector logo paints with: fill, stroke, stop-color and flood-color as
 * attributes or in style, in hex (#rgb, #rrggbb, with alpha), rgb()/rgba() or CSS names; fully
 * transparent paints, none, url() and currentColor are not colours. The same colour in two
 * spellings counts once. A logo that names no paint at all is painted black (SVG's default).
 */
export function svgColors(svg: string): string[] {
  const found = new Set<string>();
  for (const m of svg.matchAll(PAINT)) {
    const color = cssColor(m[1]!);
    if (color) found.add(color);
  }
  if (found.size === 0) found.add('#000000');
  return [...found].slice(0, MAX_LOGO_COLORS);
}

// ---------------------------------------------------------------------------------------------
// Raster logos: the pixels, quantised into colour clusters.

/** Longest side the pixels are counted at (nearest-neighbour, so no colours are blended). */
const SAMPLE_SIDE = 256;
/** Colours closer than this (RGB distance) are one printed colour (shading, JPEG noise). */
const SAME_COLOR = 40;
/** A small cluster this close to the line between two bigger ones is anti-aliasing between them. */
const BLEND_DISTANCE = 28;
/** Anti-aliasing is what is left at the edges: only clusters below this share may be blends. */
const BLEND_MAX_SHARE = 0.1;
/** Clusters below this share of the logo's pixels are noise, not a colour. */
const MIN_SHARE = 0.003;
/** A colour needs this many pixels inside an area of its own; anti-aliased edges have none. */
const MIN_INTERIOR = 4;
/** A pixel this transparent or more is not printed (and its colour is an edge's blend). */
const MIN_ALPHA = 128;

interface Cluster {
  /** The most frequent exact colour of the cluster: a flat logo reports its colour exactly. */
  seed: number;
  r: number;
  g: number;
  b: number;
  count: number;
  /** Pixels whose four neighbours are of this cluster too: an edge's blend has (almost) none. */
  interior: number;
}

const rOf = (c: number) => (c >> 16) & 255;
const gOf = (c: number) => (c >> 8) & 255;
const bOf = (c: number) => c & 255;
const dist = (a: Cluster, r: number, g: number, b: number) => Math.hypot(a.r - r, a.g - g, a.b - b);

/** Distance of point p from the segment a-b in RGB space. */
function segmentDistance(p: Cluster, a: Cluster, b: Cluster): number {
  const [dx, dy, dz] = [b.r - a.r, b.g - a.g, b.b - a.b];
  const len2 = dx * dx + dy * dy + dz * dz;
  const t =
    len2 === 0
      ? 0
      : Math.max(0, Math.min(1, ((p.r - a.r) * dx + (p.g - a.g) * dy + (p.b - a.b) * dz) / len2));
  return Math.hypot(p.r - (a.r + t * dx), p.g - (a.g + t * dy), p.b - (a.b + t * dz));
}

/**
 * Distinct printed colours of a raster logo: transparent pixels are skipped; exact colours,
 * most frequent first, are grouped into clusters of nearby colours (quantisation). Anti-aliasing
 * and compression ringing are dropped: a cluster with (almost) no pixel inside an area of its
 * own is an edge, a small cluster lying between two bigger colours (or a colour and the
 * background) is their blend, and specks below 0.3 % of the pixels are noise. An opaque logo's
 * background (one colour on at least 90 % of its border) is the material, not a printed colour.
 */
export async function rasterColors(data: Buffer): Promise<string[]> {
  const sharp = await loadSharp();
  const { data: px, info } = await sharp(data, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'inside', withoutEnlargement: true, kernel: 'nearest' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const exact = new Map<number, number>();
  let opaque = 0;
  for (let i = 0; i < px.length; i += 4) {
    if (px[i + 3]! < MIN_ALPHA) continue;
    const c = (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!;
    exact.set(c, (exact.get(c) ?? 0) + 1);
    opaque++;
  }
  if (opaque === 0) return [];

  const clusters: Cluster[] = [];
  const clusterOf = new Map<number, Cluster>();
  for (const [c, count] of [...exact].sort((x, y) => y[1] - x[1])) {
    const [r, g, b] = [rOf(c), gOf(c), bOf(c)];
    let best: Cluster | undefined;
    let bestDistance = Infinity;
    for (const k of clusters) {
      const d = dist(k, r, g, b);
      if (d < bestDistance) [best, bestDistance] = [k, d];
    }
    // Past 64 clusters the logo is a photo: the rest join their nearest cluster.
    if (best && (bestDistance < SAME_COLOR || clusters.length >= 64)) best.count += count;
    else clusters.push((best = { seed: c, r, g, b, count, interior: 0 }));
    clusterOf.set(c, best);
  }
  const at = (x: number, y: number): Cluster | undefined => {
    const i = (y * width + x) * 4;
    return px[i + 3]! < MIN_ALPHA
      ? undefined
      : clusterOf.get((px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!);
  };
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const k = at(x, y);
      if (k && at(x - 1, y) === k && at(x + 1, y) === k && at(x, y - 1) === k && at(x, y + 1) === k)
        k.interior++;
    }

  // The background of an opaque logo: the cluster of nearly all border pixels.
  let background: Cluster | undefined;
  if (opaque === width * height) {
    const border = new Map<Cluster, number>();
    let borderPixels = 0;
    const visit = (x: number, y: number) => {
      const i = (y * width + x) * 4;
      let nearest = clusters[0]!;
      for (const k of clusters)
        if (dist(k, px[i]!, px[i + 1]!, px[i + 2]!) < dist(nearest, px[i]!, px[i + 1]!, px[i + 2]!))
          nearest = k;
      border.set(nearest, (border.get(nearest) ?? 0) + 1);
      borderPixels++;
    };
    for (let x = 0; x < width; x++) {
      visit(x, 0);
      if (height > 1) visit(x, height - 1);
    }
    for (let y = 1; y < height - 1; y++) {
      visit(0, y);
      if (width > 1) visit(width - 1, y);
    }
    const [top, n] = [...border].sort((x, y) => y[1] - x[1])[0]!;
    if (n >= borderPixels * 0.9 && top.count < opaque) background = top;
  }

  const printed = clusters.filter((k) => k !== background);
  const total = printed.reduce((s, k) => s + k.count, 0);
  const kept: Cluster[] = [];
  for (const k of printed) {
    if (k.count < total * MIN_SHARE || k.interior < MIN_INTERIOR) continue;
    if (k.count < total * BLEND_MAX_SHARE) {
      const bigger = [...printed.filter((o) => o.count > k.count), ...(background ? [background] : [])];
      const isBlend = bigger.some((a, i) =>
        bigger.some((b, j) => j > i && segmentDistance(k, a, b) < BLEND_DISTANCE),
      );
      if (isBlend) continue;
    }
    kept.push(k);
  }
  return kept.slice(0, MAX_LOGO_COLORS).map((k) => toHex(k.seed));
}
