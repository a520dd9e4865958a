import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_CATALOGUE, PRICE_KEYS, priceIpFen, priceTrafficFen, trafficFenPerGb } from './pricing-rules';

describe('traffic prices (ARCHITECTURE.md, Proxies)', () => {
  it('charges residential traffic 40 yuan/GB under 100 GB', () => {
    expect(priceTrafficFen('static', 1)).toBe(4000);
    expect(priceTrafficFen('dynamic', 99.9)).toBe(399_600);
  });

  it('charges 38 yuan/GB from 100 GB', () => {
    expect(priceTrafficFen('static', 100)).toBe(380_000);
    expect(priceTrafficFen('dynamic', 499)).toBe(1_896_200);
  });

  it('charges 35 yuan/GB from 500 GB', () => {
    expect(priceTrafficFen('static', 500)).toBe(1_750_000);
    expect(priceTrafficFen('dynamic', 1000)).toBe(3_500_000);
  });

  it('prices static and dynamic residential traffic alike', () => {
    for (const gb of [0.1, 5, 100, 250.5, 500, 777]) {
      expect(priceTrafficFen('static', gb)).toBe(priceTrafficFen('dynamic', gb));
    }
  });

  it('charges data-center traffic 10 yuan/GB at any amount', () => {
    expect(priceTrafficFen('idc', 1)).toBe(1000);
    expect(priceTrafficFen('idc', 600)).toBe(600_000);
    expect(trafficFenPerGb('idc', 600)).toBe(1000);
  });

  it('sells from 0.1 GB without float error', () => {
    expect(priceTrafficFen('static', 0.1)).toBe(400);
    expect(priceTrafficFen('idc', 0.1)).toBe(100);
    expect(priceTrafficFen('dynamic', 0.3)).toBe(1200);
    expect(() => priceTrafficFen('static', 0.09)).toThrow(RangeError);
    expect(() => priceTrafficFen('static', Number.NaN)).toThrow(RangeError);
  });

  it('prices the largest purchases exactly (100 proxies of 100,000 GB: past 2^53 micro-fen)', () => {
    expect(priceTrafficFen('static', 10_000_000)).toBe(35_000_000_000);
    expect(priceTrafficFen('idc', 4_900_000.1)).toBe(4_900_000_100);
    expect(priceTrafficFen('static', 4_900_000.1)).toBe(17_150_000_350);
  });

  it('rounds half up to the fen', () => {
    expect(priceTrafficFen('idc', 0.1005)).toBe(101); // 100.5 fen
    expect(priceTrafficFen('idc', 0.1004)).toBe(100); // 100.4 fen
    expect(priceTrafficFen('static', 0.100125)).toBe(401); // 400.5 fen
    expect(priceTrafficFen('static', 0.100124)).toBe(400); // 400.496 fen
  });
});

describe('IP prices (ARCHITECTURE.md, Proxies)', () => {
  it('charges a static residential IP 2 yuan a day below 30 days', () => {
    expect(priceIpFen('static', 1)).toBe(200);
    expect(priceIpFen('static', 29)).toBe(5800);
  });

  it('charges a static residential IP 60 yuan per whole 30 days, then 2 yuan a day', () => {
    expect(priceIpFen('static', 30)).toBe(6000);
    expect(priceIpFen('static', 31)).toBe(6200);
    expect(priceIpFen('static', 60)).toBe(12_000);
  });

  it('charges a dynamic IP 2 yuan a day with no monthly rate', () => {
    expect(priceIpFen('dynamic', 1)).toBe(200);
    expect(priceIpFen('dynamic', 30)).toBe(6000);
    expect(priceIpFen('dynamic', 45)).toBe(9000);
  });

  it('charges a data-center IP 40 yuan per whole 30 days', () => {
    expect(priceIpFen('idc', 30)).toBe(4000);
    expect(priceIpFen('idc', 90)).toBe(12_000);
  });

  it('charges remaining data-center days at 40/30 yuan a day, rounded half up', () => {
    expect(priceIpFen('idc', 1)).toBe(133); // 133.33 fen
    expect(priceIpFen('idc', 2)).toBe(267); // 266.67 fen
    expect(priceIpFen('idc', 15)).toBe(2000);
    expect(priceIpFen('idc', 31)).toBe(4133);
    expect(priceIpFen('idc', 29)).toBe(3867); // 3866.67 fen
  });

  it('refuses days that are not whole and positive', () => {
    expect(() => priceIpFen('static', 0)).toThrow(RangeError);
    expect(() => priceIpFen('idc', 1.5)).toThrow(RangeError);
  });
});

describe('price catalogue', () => {
  it('defaults to the list prices of spec section 9', () => {
    expect(DEFAULT_PRICE_CATALOGUE).toEqual({
      residential_traffic_tier0_fen: 4000,
      residential_traffic_tier1_fen: 3800,
      residential_traffic_tier2_fen: 3500,
      idc_traffic_fen: 1000,
      static_ip_day_fen: 200,
      static_ip_month_fen: 6000,
      dynamic_ip_day_fen: 200,
      idc_ip_month_fen: 4000,
    });
    expect(Object.keys(DEFAULT_PRICE_CATALOGUE).sort()).toEqual([...PRICE_KEYS].sort());
  });

  it('charges the catalogue amount of each tier', () => {
    const catalogue = {
      ...DEFAULT_PRICE_CATALOGUE,
      residential_traffic_tier0_fen: 5000,
      residential_traffic_tier1_fen: 4500,
      residential_traffic_tier2_fen: 3000,
    };
    expect(priceTrafficFen('static', 99, catalogue)).toBe(495_000);
    expect(priceTrafficFen('dynamic', 100, catalogue)).toBe(450_000);
    expect(priceTrafficFen('static', 500, catalogue)).toBe(1_500_000);
    expect(priceTrafficFen('idc', 2, { idc_traffic_fen: 1234 })).toBe(2468);
  });

  it('charges the catalogue day and month rates of IP products, rounding data-center days half up', () => {
    const catalogue = {
      static_ip_day_fen: 300,
      static_ip_month_fen: 7000,
      dynamic_ip_day_fen: 250,
      idc_ip_month_fen: 4500,
    };
    expect(priceIpFen('static', 31, catalogue)).toBe(7300);
    expect(priceIpFen('dynamic', 3, catalogue)).toBe(750);
    expect(priceIpFen('idc', 1, catalogue)).toBe(150);
    expect(priceIpFen('idc', 31, { idc_ip_month_fen: 4001 })).toBe(4001 + 133); // 133.37 fen
  });

  it('falls back to the default for a missing or broken key', () => {
    expect(priceIpFen('static', 1, {})).toBe(200);
    expect(priceIpFen('static', 1, { static_ip_day_fen: Number.NaN })).toBe(200);
    expect(priceTrafficFen('static', 0.1, { residential_traffic_tier1_fen: 1 })).toBe(400);
  });
});
