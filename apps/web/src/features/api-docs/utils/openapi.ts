/**
 * Reading the server's OpenAPI document (generated from the contract's route
 * table) for the API docs page: the customer API operations under /api/v1,
 * grouped by tag, with a sample answer and a curl command that works as shown.
 */

/** A JSON schema as the document carries it (OpenAPI 3.0 dialect of zod's converter). */
export type TJsonSchema = {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  items?: TJsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
  allOf?: TJsonSchema[];
  nullable?: boolean;
  format?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: boolean | TJsonSchema;
};

/** A parameter of an operation. */
export type TApiParameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema?: TJsonSchema;
};

type TRawOperation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: TApiParameter[];
  requestBody?: { content?: Record<string, { schema?: TJsonSchema }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: TJsonSchema; example?: unknown }> }
  >;
};

/** The part of an OpenAPI document the page reads. */
export type TOpenApiDocument = {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, TRawOperation>>;
};

/** One documented call. */
export type TApiOperation = {
  id: string;
  method: string;
  /** Full path as served, e.g. "/api/v1/endpoints". */
  path: string;
  summary: string;
  tag: string;
  parameters: TApiParameter[];
  /** JSON schema of the body fields (POST/PUT), if any. */
  bodySchema?: TJsonSchema;
  /** Media type of the success answer, e.g. "application/json" or "text/plain". */
  responseType: string;
  /** Schema of `data` in the success envelope (JSON answers). */
  dataSchema?: TJsonSchema;
};

/** Operations of one tag. */
export type TApiTagGroup = { tag: string; operations: TApiOperation[] };

/** Path prefix of the customer API (called with the personal API key). */
export const CUSTOMER_API_PREFIX = '/api/v1/';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/** Every operation whose path is under the customer API, in document order. */
export function listCustomerOperations(doc: TOpenApiDocument): TApiOperation[] {
  const out: TApiOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith(CUSTOMER_API_PREFIX)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const success = op.responses?.['200']?.content ?? {};
      const [responseType = 'application/json', media] = Object.entries(success)[0] ?? [];
      const envelope = media?.schema;
      const bodyContent = op.requestBody?.content ? Object.values(op.requestBody.content)[0] : undefined;
      out.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? op.description ?? '',
        tag: op.tags?.[0] ?? 'v1',
        parameters: op.parameters ?? [],
        bodySchema: bodyContent?.schema,
        responseType,
        dataSchema: /json/.test(responseType) ? (envelope?.properties?.data ?? undefined) : undefined,
      });
    }
  }
  return out;
}

/** Operations grouped by their first tag, groups in order of first appearance. */
export function groupByTag(operations: TApiOperation[]): TApiTagGroup[] {
  const groups = new Map<string, TApiOperation[]>();
  for (const op of operations) {
    const list = groups.get(op.tag) ?? [];
    list.push(op);
    groups.set(op.tag, list);
  }
  return [...groups].map(([tag, ops]) => ({ tag, operations: ops }));
}

/** True for the area calls (the "area API" tab); the others form the "proxy API" tab. */
export function isAreaOperation(op: TApiOperation): boolean {
  return /area/i.test(op.tag) || /\/areas?(\/|$)/.test(op.path);
}

/** Readable type of a schema for the parameters table, e.g. "integer", "string (text | json)". */
export function describeType(schema: TJsonSchema | undefined): string {
  if (!schema) return 'string';
  if (schema.enum?.length) return `${schemaType(schema)} (${schema.enum.map(String).join(' | ')})`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return [...new Set(variants.map(describeType))].join(' | ');
  if (schema.type === 'array') return `${describeType(schema.items)}[]`;
  return schemaType(schema);
}

function schemaType(schema: TJsonSchema): string {
  if (Array.isArray(schema.type)) return schema.type.filter((t) => t !== 'null').join(' | ') || 'string';
  return schema.type ?? 'string';
}

/** Words of the limits text, in the page's language. */
export type TLimitWords = { default: string; chars: string };

/** Range and default of a parameter for the table, e.g. "1-200, default 20". */
export function describeLimits(
  schema: TJsonSchema | undefined,
  words: TLimitWords = { default: 'default', chars: 'chars' },
): string {
  if (!schema) return '';
  const parts: string[] = [];
  // zod writes the safe-integer bounds for plain integers: they say nothing to a reader.
  const max = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  let min = schema.minimum !== undefined && schema.minimum > -Number.MAX_SAFE_INTEGER ? schema.minimum : undefined;
  if (min !== undefined && schema.exclusiveMinimum === true) min += 1;
  if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + 1;
  if (min !== undefined && max !== undefined) parts.push(`${min}-${max}`);
  else if (min !== undefined) parts.push(`>= ${min}`);
  else if (max !== undefined) parts.push(`<= ${max}`);
  if (schema.maxLength !== undefined) parts.push(`<= ${schema.maxLength} ${words.chars}`);
  if (schema.default !== undefined) parts.push(`${words.default} ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

/** Sample strings of the JSON Schema formats, for a string with a format but no example. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  time: '00:00:00',
  email: 'user@example.com',
  ipv4: '203.0.113.8',
  ipv6: '2001:db8::8',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** The value the document itself gives a schema: example, const, default, first enum value or a sample of its format. */
export function documentedValue(schema: TJsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.format && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format];
  return undefined;
}

/** The smallest number a numeric schema allows, or 0 (zod's safe-integer bounds say nothing). */
function lowestNumber(schema: TJsonSchema): number {
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
  const min = schema.minimum !== undefined && schema.minimum > -Number.MAX_SAFE_INTEGER ? schema.minimum : undefined;
  if (min === undefined) return schema.maximum !== undefined && schema.maximum < 0 ? schema.maximum : 0;
  return schema.exclusiveMinimum === true ? min + 1 : min;
}

/**
 * A value for a schema, from the document: its examples (the contract's
 * `.meta({ examples })`), const, default, first enum value or format, built
 * up from its properties and items; where the document says nothing, a
 * neutral value of the type ("string", the lowest allowed number, false).
 */
export function sampleFromSchema(schema: TJsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  const documented = documentedValue(schema);
  if (documented !== undefined) return documented;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) {
    // A documented variant first, then one that is not null.
    const concrete =
      variants.find((v) => documentedValue(v) !== undefined && v.type !== 'null') ??
      variants.find((v) => v.type !== 'null') ??
      variants[0];
    return sampleFromSchema(concrete, depth + 1);
  }
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => sampleFromSchema(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) out[key] = sampleFromSchema(child, depth + 1);
      return out;
    }
    case 'array':
      return schema.items ? [sampleFromSchema(schema.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return lowestNumber(schema);
    case 'boolean':
      return false;
    case 'string':
      return 'string';
    case 'null':
      return null;
    default:
      return schema.properties ? sampleFromSchema({ ...schema, type: 'object' }, depth) : null;
  }
}

/** True when the call can answer plain text lines (a `format` parameter offering "text"). */
export function hasTextAnswer(op: TApiOperation): boolean {
  const format = op.parameters.find((p) => p.name === 'format');
  return !/json/.test(op.responseType) || Boolean(format?.schema?.enum?.includes('text'));
}

/** An example answer of an operation: the success envelope with the data the document exemplifies. */
export function exampleAnswer(op: TApiOperation): string {
  return JSON.stringify({ code: 0, msg: 'ok', data: op.dataSchema ? sampleFromSchema(op.dataSchema) : null }, null, 2);
}

/**
 * The text answer of a call that also answers lines (format=text): the
 * `line` of each endpoint in the JSON example, one per line; empty when the
 * example has none.
 */
export function exampleTextLines(op: TApiOperation): string {
  const data = op.dataSchema ? sampleFromSchema(op.dataSchema) : null;
  const lists = Array.isArray(data)
    ? [data]
    : typeof data === 'object' && data !== null
      ? Object.values(data).filter(Array.isArray)
      : [];
  const lines = lists
    .flat()
    .map((item: unknown) =>
      typeof item === 'object' && item !== null ? (item as { line?: unknown }).line : undefined,
    );
  return lines.filter((line): line is string => typeof line === 'string').join('\n');
}

/** Stands in the example for a required value the document gives no example of, e.g. "COUNTRY_ID" for countryId. */
export function placeholderOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/** Values that make the curl examples work for this user (e.g. one of their proxy ids). */
export type TExampleValues = Record<string, string | number | undefined>;

/** Optional query parameters worth showing in an example when a value is known. */
export const SHOWCASE_PARAMETERS = ['proxyId', 'limit', 'format', 'pageSize'];

/**
 * Query and path values of the curl example: required parameters (from the
 * user's values, else the document's example, default, enum or format, else a
 * placeholder to fill in) and the showcase optional ones the caller has a
 * value for.
 */
export function exampleParameters(
  op: TApiOperation,
  values: TExampleValues,
  showcase: readonly string[] = SHOWCASE_PARAMETERS,
): { path: Record<string, string>; query: [string, string][] } {
  const path: Record<string, string> = {};
  const query: [string, string][] = [];
  for (const param of op.parameters) {
    const known = values[param.name];
    const hasKnown = known !== undefined && known !== '';
    const value = () => String(hasKnown ? known : (documentedValue(param.schema) ?? placeholderOf(param.name)));
    if (param.in === 'path') {
      path[param.name] = value();
    } else if (param.in === 'query') {
      if (param.required) query.push([param.name, value()]);
      else if (hasKnown && showcase.includes(param.name)) query.push([param.name, String(known)]);
    }
  }
  return { path, query };
}

/** The full URL of an operation's example call. */
export function exampleUrl(op: TApiOperation, origin: string, values: TExampleValues): string {
  const { path, query } = exampleParameters(op, values);
  const filled = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? name));
  const search = new URLSearchParams(query).toString();
  return `${origin.replace(/\/$/, '')}${filled}${search ? `?${search}` : ''}`;
}

/** Quotes a value for a POSIX shell inside double quotes. */
function shellQuote(text: string): string {
  return `"${text.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** A curl command calling the operation with the personal API key, as shown on the page. */
export function buildCurlExample(
  op: TApiOperation,
  origin: string,
  apiKey: string,
  values: TExampleValues = {},
): string {
  const parts = ['curl'];
  if (op.method !== 'GET') parts.push('-X', op.method);
  parts.push('-H', shellQuote(`X-API-Key: ${apiKey}`));
  if (op.bodySchema && op.method !== 'GET') {
    parts.push('-H', shellQuote('Content-Type: application/json'));
    parts.push('-d', `'${JSON.stringify(sampleFromSchema(op.bodySchema)).replace(/'/g, "'\\''")}'`);
  }
  parts.push(shellQuote(exampleUrl(op, origin, values)));
  return parts.join(' ');
}
