import { describe, expect, it } from 'vitest';
import { loadGatewaySettings } from './settings';

describe('gateway metrics settings', () => {
  it('listens on loopback port 9465 by default, or off; the copy is stale after 30 s', () => {
    const settings = loadGatewaySettings({});
    expect([settings.GATEWAY_METRICS_LISTEN, settings.GATEWAY_STATE_STALE_S]).toEqual([
      { host: '127.0.0.1', port: 9465 },
      30,
    ]);
    expect(loadGatewaySettings({ GATEWAY_METRICS_LISTEN: 'off' }).GATEWAY_METRICS_LISTEN).toBeNull();
  });

  it('refuses an address off loopback without a token, and a malformed address', () => {
    expect(() => loadGatewaySettings({ GATEWAY_METRICS_LISTEN: '[::]:9465' })).toThrow(
      /GATEWAY_METRICS_TOKEN: required when GATEWAY_METRICS_LISTEN is not a loopback address/,
    );
    expect(() => loadGatewaySettings({ GATEWAY_METRICS_LISTEN: 'nowhere' })).toThrow(
      /Invalid gateway configuration:\n {2}GATEWAY_METRICS_LISTEN: host:port/,
    );
    expect(
      loadGatewaySettings({ GATEWAY_METRICS_LISTEN: '0.0.0.0:9465', GATEWAY_METRICS_TOKEN: 't'.repeat(20) })
        .GATEWAY_METRICS_LISTEN,
    ).toEqual({ host: '0.0.0.0', port: 9465 });
  });
});
