import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { PriceAmounts } from '../src/connectors/price-amounts';

/** What the price import computed with decimal.js for every scale before PriceAmounts. */
function reference(price: string, margin: string): [string, string] {
  const factor = new Decimal(1).plus(new Decimal(margin).div(100));
  const d = new Decimal(price);
  return [d.toFixed(4), d.times(factor).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4)];
}

describe('PriceAmounts', () => {
  it('rounds purchase and marked-up retail half up to four decimals, as decimal.js did', () => {
    const cases: Array<[string, string, [string, string]]> = [
      ['0.26', '40', ['0.2600', '0.3640']],
      ['0.32', '40', ['0.3200', '0.4480']],
      ['1.23455', '0', ['1.2346', '1.2346']],
      ['1.23454', '0', ['1.2345', '1.2345']],
      ['0.00005', '0', ['0.0001', '0.0001']],
      ['0.00004999', '0', ['0.0000', '0.0000']],
      ['2.5', '12.5', ['2.5000', '2.8125']],
      ['0.0001', '33.33', ['0.0001', '0.0001']],
      ['0.00015', '-10', ['0.0002', '0.0001']],
      ['12345678901234.56789', '40', ['12345678901234.5679', '17283950461728.3950']],
      ['0', '40', ['0.0000', '0.0000']],
      ['-1.5', '40', ['-1.5000', '-2.1000']],
      ['1e-3', '40', ['0.0010', '0.0014']],
    ];
    for (const [price, margin, expected] of cases) {
      expect(new PriceAmounts(margin).of(price), `${price} at ${margin} %`).toEqual(expected);
      expect(reference(price, margin), `reference ${price} at ${margin} %`).toEqual(expected);
    }
  });

  it('agrees with decimal.js on many generated prices and margins', () => {
    let seed = 17;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (const margin of ['0', '40', '17.5', '33.333', '250', '-20', '7.0625']) {
      const amounts = new PriceAmounts(margin);
      for (let i = 0; i < 5000; i++) {
        const price = `${next() % 1000}.${String(next() % 10 ** (1 + (i % 7))).padStart(1 + (i % 7), '0')}`;
        expect(amounts.of(price), `${price} at ${margin} %`).toEqual(reference(price, margin));
      }
    }
  });
});
