import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROUTES, ZArea, ZProxyToken, ZV1Endpoint, buildOpenApi, type TRouteName } from '@proxy/contract';
import {
  buildCurlExample,
  describeLimits,
  describeType,
  exampleAnswer,
  exampleTextLines,
  exampleUrl,
  groupByTag,
  isAreaOperation,
  listCustomerOperations,
  sampleFromSchema,
  type TOpenApiDocument,
} from './openapi';

// The real document the server serves, generated from the contract's route table.
const doc = buildOpenApi('http://127.0.0.1:8080') as TOpenApiDocument;
const operations = listCustomerOperations(doc);
const byId = (id: string) => operations.find((op) => op.id === id)!;
const KEY = 'pk_0123456789abcdef0123456789abcdef';

/** The first of the examples a contract schema carries (`.meta({ examples })`). */
function contractExample(schema: { meta(): Record<string, unknown> | undefined }): unknown {
  const examples = schema.meta()?.examples;
  if (!Array.isArray(examples) || examples.length === 0) throw new Error('the contract schema has no examples');
  return examples[0];
}

/** Splits a curl command as a POSIX shell would (double and single quotes). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of command.matchAll(pattern)) {
    words.push(match[1] !== undefined ? match[1].replace(/\\(["\\$`])/g, '$1') : (match[2] ?? match[3]));
  }
  return words;
}

/**
 * A stand-in for the customer API that validates what a curl would send with
 * the contract's own schemas: the X-API-Key header and the route's query.
 */
async function startValidatingServer() {
  const v1 = Object.values(ROUTES).filter((route) => route.path.startsWith('/v1/'));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers['x-api-key'] !== KEY) return send(401, { code: 401, msg: 'bad key', data: null });
    for (const route of v1) {
      const pattern = new RegExp(`^/api${route.path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`);
      const match = pattern.exec(url.pathname);
      if (!match) continue;
      const input = { ...Object.fromEntries(url.searchParams), ...match.groups };
      const parsed = route.input.safeParse(input);
      return parsed.success
        ? send(200, { code: 0, msg: 'ok', data: parsed.data })
        : send(400, { code: 400, msg: JSON.stringify(parsed.error.issues), data: null });
    }
    return send(404, { code: 404, msg: 'no route', data: null });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const api = await startValidatingServer();
afterAll(() => api.close());

describe('customer API operations from the OpenAPI document', () => {
  it('lists only /api/v1 calls, each with method, summary and tag', () => {
    expect(operations.length).toBeGreaterThanOrEqual(5);
    for (const op of operations) {
      expect(op.path.startsWith('/api/v1/')).toBe(true);
      expect(op.method).toBe('GET');
      expect(op.summary.length).toBeGreaterThan(10);
    }
    expect(operations.map((op) => op.path)).toEqual(
      expect.arrayContaining(['/api/v1/areas/countries', '/api/v1/proxies', '/api/v1/endpoints']),
    );
    expect(operations.some((op) => op.path.startsWith('/api/user/'))).toBe(false);
  });

  it('splits area calls from proxy calls and groups them by tag', () => {
    const areas = operations.filter(isAreaOperation).map((op) => op.path);
    expect(areas).toEqual(['/api/v1/areas/countries', '/api/v1/areas/states', '/api/v1/areas/cities']);
    const proxyGroups = groupByTag(operations.filter((op) => !isAreaOperation(op)));
    expect(proxyGroups.map((g) => g.tag)).toEqual(expect.arrayContaining(['customer-api']));
    expect(proxyGroups.flatMap((g) => g.operations.map((op) => op.path))).toEqual(
      expect.arrayContaining(['/api/v1/proxies', '/api/v1/endpoints']),
    );
  });

  it("describes the spec's area parameters with their types and limits", () => {
    const endpoints = byId('v1Endpoints');
    const names = endpoints.parameters.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['proxyId', 'countryId', 'stateId', 'cityId', 'networkType', 'limit']),
    );
    const limit = endpoints.parameters.find((p) => p.name === 'limit')!;
    expect(describeType(limit.schema)).toBe('integer');
    expect(describeLimits(limit.schema)).toBe('1-10000, default 10');
    expect(describeType(endpoints.parameters.find((p) => p.name === 'networkType')!.schema)).toBe(
      'string (HTTP | SOCKS5)',
    );
    expect(describeLimits(endpoints.parameters.find((p) => p.name === 'proxyId')!.schema)).toBe('>= 1');
    const proxies = byId('v1Proxies').parameters.map((p) => p.name);
    expect(proxies).toEqual(expect.arrayContaining(['page', 'pageSize', 'ipAddress']));
  });

  it("answers with the contract's examples, not values made up from field names", () => {
    const endpoints = JSON.parse(exampleAnswer(byId('v1Endpoints'))) as {
      code: number;
      msg: string;
      data: { endpoints: unknown[]; total: number };
    };
    expect(endpoints).toMatchObject({ code: 0, msg: 'ok' });
    expect(endpoints.data).toEqual({ endpoints: [contractExample(ZV1Endpoint)], total: 1 });
    const proxies = JSON.parse(exampleAnswer(byId('v1Proxies'))) as { data: { records: unknown[]; page_size: number } };
    expect(proxies.data).toEqual({ records: [contractExample(ZProxyToken)], total: 1, page: 1, page_size: 20 });
    const countries = JSON.parse(exampleAnswer(byId('v1AreaCountries'))) as { data: unknown[] };
    expect(countries.data).toEqual([contractExample(ZArea)]);
  });

  it("shows the example endpoints' lines as the text answer", () => {
    const line = (contractExample(ZV1Endpoint) as { line: string }).line;
    expect(exampleTextLines(byId('v1Endpoints'))).toBe(line);
    expect(exampleTextLines(byId('v1AreaCountries'))).toBe('');
  });

  it("every example answer is one the route's output schema accepts", () => {
    for (const op of operations) {
      const { data } = JSON.parse(exampleAnswer(op)) as { data: unknown };
      const parsed = ROUTES[op.id as TRouteName].output.safeParse(data);
      expect({ op: op.id, issues: parsed.error?.issues ?? [] }).toEqual({ op: op.id, issues: [] });
    }
  });

  it('without examples, takes the default, then the enum, then the format, and otherwise a neutral value whatever the field is called', () => {
    expect(
      sampleFromSchema({
        type: 'object',
        properties: {
          port: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
          host: { type: 'string' },
          created_at: { type: 'string' },
          expires_at: { type: 'string', format: 'date-time' },
          address: { type: 'string', format: 'ipv4' },
          country: { type: 'string', enum: ['de', 'us'] },
          network: { type: 'string', enum: ['HTTP', 'SOCKS5'], default: 'SOCKS5' },
          limit: { type: 'integer', minimum: 1, default: 10 },
          id: { type: 'integer', exclusiveMinimum: 0 },
          auto_renew: { type: 'boolean' },
          note: { type: ['string', 'null'] },
        },
      }),
    ).toEqual({
      port: 0,
      host: 'string',
      created_at: 'string',
      expires_at: '2026-01-01T00:00:00.000Z',
      address: '203.0.113.8',
      country: 'de',
      network: 'SOCKS5',
      limit: 10,
      id: 1,
      auto_renew: false,
      note: 'string',
    });
    expect(sampleFromSchema({ type: 'string', enum: ['a', 'b'], default: 'b', examples: ['c'] })).toBe('c');
    expect(sampleFromSchema({ type: 'integer', example: 5, examples: [6] })).toBe(5);
    expect(sampleFromSchema({ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 3 }] })).toBe(3);
    expect(sampleFromSchema({ anyOf: [{ type: 'string' }, { type: 'null' }], examples: ['given'] })).toBe('given');
  });
});

describe('curl examples', () => {
  const values = { proxyId: 12, countryId: 'us', limit: 10, format: 'text', ip: '8.8.8.8' };

  it('carry the key and a URL on the given origin with the showcase parameters', () => {
    const curl = buildCurlExample(byId('v1Endpoints'), 'http://127.0.0.1:8080', KEY, values);
    expect(curl).toBe(
      `curl -H "X-API-Key: ${KEY}" "http://127.0.0.1:8080/api/v1/endpoints?proxyId=12&limit=10&format=text"`,
    );
    expect(exampleUrl(byId('v1AreaStates'), 'http://127.0.0.1:8080/', values)).toBe(
      'http://127.0.0.1:8080/api/v1/areas/states?countryId=us',
    );
    expect(exampleUrl(byId('ipQuality'), 'http://127.0.0.1:8080', values)).toBe(
      'http://127.0.0.1:8080/api/v1/ip-quality/8.8.8.8',
    );
  });

  it('fill required parameters without a known value or an example with a placeholder to replace', () => {
    expect(exampleUrl(byId('v1AreaCities'), 'http://h', {})).toBe('http://h/api/v1/areas/cities?countryId=COUNTRY_ID');
    expect(exampleUrl(byId('ipQuality'), 'http://h', {})).toBe('http://h/api/v1/ip-quality/IP');
  });

  it("fill a required parameter from the document's example when there is one", () => {
    const op = byId('v1AreaCities');
    const withExample = {
      ...op,
      parameters: op.parameters.map((p) =>
        p.name === 'countryId' ? { ...p, schema: { ...p.schema, examples: ['jp'] } } : p,
      ),
    };
    expect(exampleUrl(withExample, 'http://h', {})).toBe('http://h/api/v1/areas/cities?countryId=jp');
  });

  it("work as shown: each command, split as a shell does, passes the contract's validation with the key", async () => {
    for (const op of operations) {
      const words = shellWords(buildCurlExample(op, api.origin, KEY, values));
      expect(words[0]).toBe('curl');
      const header = words[words.indexOf('-H') + 1];
      const url = words[words.length - 1];
      const [name, value] = header.split(': ');
      const res = await fetch(url, { headers: { [name]: value } });
      const body = (await res.json()) as { code: number; msg: string };
      expect({ op: op.id, code: body.code, msg: body.msg }).toEqual({ op: op.id, code: 0, msg: 'ok' });
    }
  });

  it('a wrong key is refused by the same server (the check can fail)', async () => {
    const words = shellWords(buildCurlExample(byId('v1Proxies'), api.origin, 'pk_wrong', values));
    const res = await fetch(words[words.length - 1], { headers: { 'X-API-Key': 'pk_wrong' } });
    expect(res.status).toBe(401);
  });

  it('quote what a shell would expand', () => {
    const curl = buildCurlExample(byId('v1Proxies'), 'http://h', 'pk_$x"y', {});
    expect(shellWords(curl)[2]).toBe('X-API-Key: pk_$x"y');
    expect(curl).toContain('\\$x\\"y');
  });
});
