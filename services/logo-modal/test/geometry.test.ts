import { describe, expect, it } from 'vitest';
import { coordinatesBox, parsePrintArea, placeLogo, printAreaOf } from '../src/catalog/geometry';
import { isSku, parseSku } from '../src/catalog/sku';

describe('print coordinates and logo placement', () => {
  it('reads the coordinate shapes suppliers deliver into one box', () => {
    const box = { x: 10, y: 20, width: 30, height: 40 };
    expect(coordinatesBox({ x: 10, y: 20, width: 30, height: 40 })).toEqual(box);
    expect(coordinatesBox({ left: '10', top: '20', w: 30, h: 40 })).toEqual(box);
    expect(coordinatesBox({ x1: 40, y1: 60, x2: 10, y2: 20 })).toEqual(box);
    expect(
      coordinatesBox({
        points: [
          [10, 20],
          [40, 20],
          [40, 60],
          [10, 60],
        ],
      }),
    ).toEqual(box);
    expect(
      coordinatesBox([
        { distance_from_left: '10', distance_from_top: '20' },
        { distance_from_left: '40', distance_from_top: '20' },
        { distance_from_left: '40', distance_from_top: '60' },
      ]),
    ).toEqual(box);
    for (const bad of [
      null,
      'x',
      {},
      { x: 1, y: 1, width: 0, height: 5 },
      [{ distance_from_left: 1, distance_from_top: 2 }],
    ])
      expect(coordinatesBox(bad)).toBeUndefined();
  });

  it('takes the print area from the column, else from the maximum size', () => {
    expect(printAreaOf({ printArea: '50x30', maxWidthMm: null, maxHeightMm: null })).toBe('50x30');
    expect(printAreaOf({ printArea: null, maxWidthMm: '45.00', maxHeightMm: '6.50' })).toBe('45x6.5');
    expect(printAreaOf({ printArea: null, maxWidthMm: null, maxHeightMm: '6' })).toBeUndefined();
    expect(parsePrintArea('45x6.5')).toEqual({ widthMm: 45, heightMm: 6.5 });
  });

  it('keeps the logo inside the print area and its aspect ratio', () => {
    const area = { x: 100, y: 100, width: 200, height: 50 };
    // Wide enough: 80 % of the width.
    expect(placeLogo(area, 4, { scale: 0.8 })).toEqual({ x: 120, y: 105, width: 160, height: 40 });
    // Too tall at that scale: limited by the height.
    expect(placeLogo(area, 1, { scale: 0.8 })).toEqual({ x: 175, y: 100, width: 50, height: 50 });
    // Pushed out of the area: clamped to its edge.
    expect(placeLogo(area, 4, { scale: 0.5, x: 0, y: 1 })).toEqual({
      x: 100,
      y: 125,
      width: 100,
      height: 25,
    });
  });

  it('accepts base and variant SKUs only', () => {
    expect(parseSku('900-01')).toEqual({ sku: '900-01', baseSku: '900-01', variantSku: null });
    expect(parseSku('900-01.002')).toEqual({
      sku: '900-01.002',
      baseSku: '900-01',
      variantSku: '900-01.002',
    });
    for (const bad of ['900-01.02', '9000-01', '900_01', '900-01.002.1', ''])
      expect(isSku(bad), bad).toBe(false);
  });
});
