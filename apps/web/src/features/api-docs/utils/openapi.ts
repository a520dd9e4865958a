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
export type TApiParameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; description?: string; schema?: TJsonSchema };

type TRawOperation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: TApiParameter[];
  requestBody?: { content?: Record<string, { schema?: TJsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: TJsonSchema; example?: unknown }> }>;
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
export function describeLimits(schema: TJsonSchema | undefined, words: TLimitWords = { default: 'default', chars: 'chars' }): string {
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

/** A plausible value for a schema: its example, default, first enum value, or one by type. */
export function sampleFromSchema(schema: TJsonSchema | undefined, name = '', depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) {
    const concrete = variants.find((v) => v.type !== 'null') ?? variants[0];
    return sampleFromSchema(concrete, name, depth + 1);
  }
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => sampleFromSchema(s, name, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) out[key] = sampleFromSchema(child, key, depth + 1);
      return out;
    }
    case 'array':
      return schema.items ? [sampleFromSchema(schema.items, name, depth + 1)] : [];
    case 'integer':
      return sampleInteger(name, schema);
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'string':
      return sampleString(name, schema);
    default:
      return schema.properties ? sampleFromSchema({ ...schema, type: 'object' }, name, depth) : null;
  }
}

function sampleInteger(name: string, schema: TJsonSchema): number {
  if (/port/i.test(name)) return 7777;
  if (/total|count|available/i.test(name)) return 1;
  return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 1;
}

function sampleString(name: string, schema: TJsonSchema): string {
  if (schema.format === 'date-time' || /(_at|time|date)$/i.test(name)) return '2026-01-01T00:00:00.000Z';
  if (name === 'name_zh' || name === 'zh') return '美国';
  if (name === 'en') return 'United States';
  if (name === 'flag') return '🇺🇸';
  if (name === 'name' || name === 'name_en' || name === 'country_name') return 'United States';
  if (name === 'id') return 'us';
  if (/host/i.test(name)) return 'gw.example.com';
  if (/country/i.test(name)) return 'us';
  if (/^ip$|address/i.test(name)) return '203.0.113.8';
  if (/user/i.test(name)) return 'u1a2b3c4';
  if (/pass/i.test(name)) return 'p4ssw0rd';
  if (/url/i.test(name)) return 'http://u1a2b3c4:p4ssw0rd@gw.example.com:7777';
  return name || 'string';
}

/** Sample endpoint lines of a text answer. */
export const SAMPLE_TEXT_LINES = 'gw.example.com:7777:u1a2b3c4-country-us:p4ssw0rd\ngw.example.com:7777:u1a2b3c4-country-us:p4ssw0rd';

/** True when the call can answer plain text lines (a `format` parameter offering "text"). */
export function hasTextAnswer(op: TApiOperation): boolean {
  const format = op.parameters.find((p) => p.name === 'format');
  return !/json/.test(op.responseType) || Boolean(format?.schema?.enum?.includes('text'));
}

/** An example answer of an operation: the success envelope with sample data, or sample lines for text answers. */
export function exampleAnswer(op: TApiOperation): string {
  if (!/json/.test(op.responseType)) return SAMPLE_TEXT_LINES;
  return JSON.stringify({ code: 0, msg: 'ok', data: op.dataSchema ? sampleFromSchema(op.dataSchema) : null }, null, 2);
}

/** Values that make the curl examples work for this user (e.g. one of their proxy ids). */
export type TExampleValues = Record<string, string | number | undefined>;

/** Optional query parameters worth showing in an example when a value is known. */
export const SHOWCASE_PARAMETERS = ['proxyId', 'limit', 'format', 'pageSize'];

/**
 * Query and path values of the curl example: required parameters (from the
 * user's values, the schema's example/default, or a sample) and the showcase
 * optional ones the caller has a value for.
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
    if (param.in === 'path') {
      path[param.name] = String(hasKnown ? known : (sampleFromSchema(param.schema, param.name) ?? param.name));
    } else if (param.in === 'query') {
      if (param.required) query.push([param.name, String(hasKnown ? known : (sampleFromSchema(param.schema, param.name) ?? ''))]);
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
export function buildCurlExample(op: TApiOperation, origin: string, apiKey: string, values: TExampleValues = {}): string {
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
