/** Bounding box of a print area on the product template, in the template's own units. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/**
 * Print coordinates come from several suppliers in several shapes: a box {x, y, width, height}
 * (or left/top), two corners {x1, y1, x2, y2}, or a polygon ({points: [...]} or the bare array, points as
 * [x, y], {x, y} or {distance_from_left, distance_from_top}). All become
 * one bounding box; anything unusable counts as "no coordinates".
 */
export function coordinatesBox(raw: unknown): Box | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  // Supplier print data may store the polygon itself as the array.
  const c = (Array.isArray(raw) ? { points: raw } : raw) as Record<string, unknown>;
  let box: Box | undefined;
  const x = num(c.x ?? c.left);
  const y = num(c.y ?? c.top);
  const w = num(c.width ?? c.w);
  const h = num(c.height ?? c.h);
  if (x !== undefined && y !== undefined && w !== undefined && h !== undefined)
    box = { x, y, width: w, height: h };
  const x1 = num(c.x1);
  const y1 = num(c.y1);
  const x2 = num(c.x2);
  const y2 = num(c.y2);
  if (!box && x1 !== undefined && y1 !== undefined && x2 !== undefined && y2 !== undefined) {
    box = { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
  }
  if (!box && Array.isArray(c.points) && c.points.length >= 3) {
    const pts = c.points
      .map((p) =>
        Array.isArray(p)
          ? [num(p[0]), num(p[1])]
          : [
              num((p as Record<string, unknown>)?.x ?? (p as Record<string, unknown>)?.distance_from_left),
              num((p as Record<string, unknown>)?.y ?? (p as Record<string, unknown>)?.distance_from_top),
            ],
      )
      .filter((p): p is [number, number] => p[0] !== undefined && p[1] !== undefined);
    if (pts.length >= 3) {
      const xs = pts.map((p) => p[0]);
      const ys = pts.map((p) => p[1]);
      box = {
        x: Math.min(...xs),
        y: Math.min(...ys),
        width: Math.max(...xs) - Math.min(...xs),
        height: Math.max(...ys) - Math.min(...ys),
      };
    }
  }
  if (!box || box.width <= 0 || box.height <= 0) return undefined;
  return box;
}

/** Print area as `<w>x<h>` mm: the column when set, else the maximum print size. */
export function printAreaOf(p: {
  printArea: string | null;
  maxWidthMm: string | null;
  maxHeightMm: string | null;
}): string | undefined {
  if (p.printArea) return p.printArea;
  if (p.maxWidthMm && p.maxHeightMm) return `${Number(p.maxWidthMm)}x${Number(p.maxHeightMm)}`;
  return undefined;
}

export function parsePrintArea(area: string): { widthMm: number; heightMm: number } | undefined {
  const m = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(area);
  if (!m) return undefined;
  return { widthMm: Number(m[1]), heightMm: Number(m[2]) };
}

export interface Placement {
  /** Logo box in template units. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where the logo lands inside the print area. `scale` is the share of the print area's width the
 * logo may take (0.05..1), `x`/`y` the logo centre as a share of the area (0..1). The logo keeps
 * its aspect ratio and never leaves the area. The modal page runs the same arithmetic.
 */
export function placeLogo(
  area: Box,
  logoAspect: number,
  cfg: { scale?: number; x?: number; y?: number },
): Placement {
  const scale = Math.min(1, Math.max(0.05, cfg.scale ?? 0.8));
  let width = area.width * scale;
  let height = width / logoAspect;
  if (height > area.height) {
    height = area.height;
    width = height * logoAspect;
  }
  const cx = area.x + area.width * Math.min(1, Math.max(0, cfg.x ?? 0.5));
  const cy = area.y + area.height * Math.min(1, Math.max(0, cfg.y ?? 0.5));
  const x = Math.min(Math.max(cx - width / 2, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(cy - height / 2, area.y), area.y + area.height - height);
  return { x, y, width, height };
}
