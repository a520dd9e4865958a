import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PRICE_CATALOGUE,
  priceIpFen,
  priceTrafficFen,
  trafficFenPerGb,
  type TPriceCatalogue,
} from '@proxy/contract';
import { previewPrice } from './price-preview';

const CUSTOM: TPriceCatalogue = {
  ...DEFAULT_PRICE_CATALOGUE,
  residential_traffic_tier0_fen: 4123,
  idc_ip_month_fen: 4100,
  static_ip_day_fen: 250,
};

describe('price preview', () => {
  it('prices IP products per token times the quantity, as the contract does', () => {
    for (const kind of ['static', 'dynamic', 'idc'] as const) {
      for (const days of [1, 7, 29, 30, 31, 61, 365]) {
        for (const quantity of [1, 3]) {
          expect(previewPrice(kind, { billing: 'ip', quantity, days }, CUSTOM)?.totalFen).toBe(
            priceIpFen(kind, days, CUSTOM) * quantity,
          );
        }
      }
    }
    expect(previewPrice('static', { billing: 'ip', quantity: 1, days: 1 })?.totalFen).toBe(200); // a one-day static IP: 2 yuan
  });

  it('prices traffic on the whole purchase, so the tier is the purchase total', () => {
    // 60 GB x 2 = 120 GB crosses the 100 GB tier: 38 yuan per GB for all of it.
    expect(previewPrice('static', { billing: 'traffic', quantity: 2, trafficGb: 60 })).toEqual({
      totalFen: priceTrafficFen('static', 120),
      unitFen: trafficFenPerGb('static', 120),
      totalGb: 120,
    });
    expect(previewPrice('static', { billing: 'traffic', quantity: 2, trafficGb: 60 })).toMatchObject({
      totalFen: 120 * 3800,
      unitFen: 3800,
    });
    expect(previewPrice('dynamic', { billing: 'traffic', quantity: 3, trafficGb: 0.1 }, CUSTOM)?.totalFen).toBe(
      priceTrafficFen('dynamic', 0.3, CUSTOM),
    );
    expect(previewPrice('idc', { billing: 'traffic', quantity: 1, trafficGb: 0.7 }, CUSTOM)?.totalFen).toBe(
      priceTrafficFen('idc', 0.7, CUSTOM),
    );
  });

  it('has no price while the form cannot be bought', () => {
    expect(previewPrice('static', { billing: 'traffic', quantity: 1, trafficGb: 0.05 })).toBeNull();
    expect(previewPrice('static', { billing: 'traffic', quantity: 1, trafficGb: 0.15 })).toBeNull();
    expect(previewPrice('static', { billing: 'ip', quantity: 0, days: 1 })).toBeNull();
    expect(previewPrice('static', { billing: 'ip', quantity: 1, days: 1.5 })).toBeNull();
    expect(previewPrice('static', { billing: 'ip', quantity: 1, days: null })).toBeNull();
  });
});
