import { describe, expect, it } from 'vitest';
import { createAuthorizer, type TGrant } from './authorizer';
import type { TExitNodeRow } from './exit-nodes.repository';
import type { TLeases } from './leases';
import type { TStateCache } from './state-cache';
import type { TTokenRow } from './tokens.repository';

// Exit choice and the inventory probe's health: dynamic tokens skip exits marked down unless their whole area is down.
const NOW = Date.parse('2026-05-01T00:00:00Z');

function node(id: number, health: TExitNodeRow['health']): TExitNodeRow {
  return {
    id,
    kind: 'residential',
    egress: 'http',
    host: `10.0.0.${id}`,
    port: 3128,
    username: null,
    password: null,
    country: 'us',
    state: '',
    city: '',
    stateName: '',
    cityName: '',
    exitIp: null,
    status: 'active',
    holderTokenId: null,
    health,
    latencyMs: null,
    checkedAt: null,
    probeFailures: 0,
    probeError: null,
    costPerDayFen: 0,
    createdAt: new Date(NOW),
    updatedAt: new Date(NOW),
  };
}

function token(id: number, product: TTokenRow['product'], exitNodeId: number | null = null): TTokenRow {
  return {
    id,
    ownerStatus: 'active',
    userId: 1,
    product,
    category: 'isp',
    billing: 'traffic',
    network: 'HTTP',
    country: 'us',
    state: '',
    city: '',
    username: `u${id}`,
    password: 'secret',
    status: 'enabled',
    deletedAt: null,
    expiresAt: new Date(NOW + 86_400_000),
    exitNodeId,
    trafficLimitBytes: null,
    trafficUsedBytes: 0,
    trafficLeasedBytes: 0,
    updatedAt: new Date(NOW),
  };
}

function authorizerOver(nodes: TExitNodeRow[], tokens: TTokenRow[]) {
  const cache = {
    nodes: () => nodes,
    node: (id: number) => nodes.find((n) => n.id === id),
    tokenByUsername: (username: string) => tokens.find((t) => t.username === username),
    tokenById: (id: number) => tokens.find((t) => t.id === id),
    listsOf: () => undefined,
    targetRulesOf: () => null,
    lookUp: async () => false,
    poolsOf: () => [],
  } as unknown as TStateCache;
  const leases = { allowanceLeft: () => Number.POSITIVE_INFINITY, prepare: () => {} } as unknown as TLeases;
  return createAuthorizer({ cache, leases, now: () => NOW, maxConnectionsPerToken: 10, exitPenaltyMs: 60_000 });
}

function exitIds(authorizer: ReturnType<typeof authorizerOver>, username: string): number[] {
  const grant = authorizer.authorize({
    username,
    password: 'secret',
    protocol: 'http',
    sourceIp: '198.51.100.1',
  }) as TGrant;
  return grant.exits.map((e) => e.id);
}

describe('exit choice with probed health', () => {
  it('never offers a dynamic token an exit marked down while its area has others', () => {
    const authorizer = authorizerOver([node(1, 'up'), node(2, 'down'), node(3, 'unknown')], [token(10, 'dynamic')]);
    for (let session = 1; session <= 20; session += 1) {
      expect(exitIds(authorizer, `u10-session-s${session}`).sort()).toEqual([1, 3]);
    }
  });

  it('keeps every exit when the whole area is down (as before the probe)', () => {
    const authorizer = authorizerOver([node(1, 'down'), node(2, 'down')], [token(10, 'dynamic')]);
    expect(exitIds(authorizer, 'u10').sort()).toEqual([1, 2]);
  });

  it('leaves a static token on its own exit, down or not', () => {
    const authorizer = authorizerOver([node(1, 'down'), node(2, 'up')], [token(11, 'static', 1)]);
    expect(exitIds(authorizer, 'u11')).toEqual([1]);
  });
});
