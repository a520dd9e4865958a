import { z } from 'zod';
import { ERRORS } from './errors';
import { DECIMAL_DIGITS_INPUTS } from './validators';
import { API_PREFIX, ROUTES } from './routes';
import type { TRouteDef } from './route-def';

type TJson = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): TJson {
  try {
    // JSON Schema 2020-12, the dialect of the OpenAPI 3.1 document declared below.
    return z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      // Integers sent as decimal digits (zDigits) are documented as the integers they are, with their bounds.
      override: (ctx) => {
        const def = (
          ctx.zodSchema as unknown as {
            _zod: { def: { type: string; in?: z.ZodType; out?: z.ZodType; defaultValue?: unknown } };
          }
        )._zod.def;
        if (def.type === 'default' && ctx.jsonSchema.default === undefined)
          ctx.jsonSchema.default = def.defaultValue as never;
        if (def.type !== 'pipe' || !def.in || !def.out || !DECIMAL_DIGITS_INPUTS.has(def.in)) return;
        const { $schema: _ignored, ...rules } = z.toJSONSchema(def.out, {
          io: 'output',
          unrepresentable: 'any',
          target: 'draft-2020-12',
        }) as TJson;
        const json = ctx.jsonSchema as TJson;
        for (const key of Object.keys(json))
          if (key !== 'default' && key !== 'examples' && key !== 'description') delete json[key];
        Object.assign(json, rules);
      },
    }) as TJson;
  } catch {
    return {};
  }
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
}

function operation(name: string, def: TRouteDef): TJson {
  const input = toSchema(def.input, 'input');
  const props = (input.properties ?? {}) as Record<string, TJson>;
  const required = new Set((input.required ?? []) as string[]);
  const inPath = pathParams(def.path);
  const parameters: TJson[] = inPath.map((p) => ({
    name: p,
    in: 'path',
    required: true,
    schema: props[p] ?? { type: 'string' },
  }));
  const bodyProps: Record<string, TJson> = {};
  for (const [key, schema] of Object.entries(props)) {
    if (inPath.includes(key)) continue;
    if (def.body === 'none') parameters.push({ name: key, in: 'query', required: required.has(key), schema });
    else bodyProps[key] = schema;
  }
  const op: TJson = {
    operationId: name,
    summary: def.summary,
    tags: [def.tag],
    parameters,
    security:
      def.auth === 'none' ? [] : def.auth === 'user-or-key' ? [{ bearer: [] }, { apiKey: [] }] : [{ bearer: [] }],
    responses: {
      200: {
        description: def.isBlob ? 'A file' : 'Envelope with code 0',
        content: def.isBlob
          ? { 'application/octet-stream': {} }
          : {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    code: { type: 'integer', enum: [0] },
                    msg: { type: 'string' },
                    data: toSchema(def.output, 'output'),
                  },
                },
              },
            },
      },
      default: { description: 'Envelope with a non-zero code (see x-error-codes)' },
    },
  };
  if (def.body !== 'none' && Object.keys(bodyProps).length > 0) {
    const mediaType =
      def.body === 'form'
        ? 'application/x-www-form-urlencoded'
        : def.body === 'multipart'
          ? 'multipart/form-data'
          : 'application/json';
    op.requestBody = {
      required: true,
      content: {
        [mediaType]: {
          schema: { type: 'object', properties: bodyProps, required: [...required].filter((r) => r in bodyProps) },
        },
      },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document of the whole route table. */
export function buildOpenApi(serverUrl = ''): TJson {
  const paths: Record<string, Record<string, TJson>> = {};
  for (const [name, def] of Object.entries(ROUTES) as [string, TRouteDef][]) {
    const path = API_PREFIX + def.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][def.method.toLowerCase()] = operation(name, def);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Proxy console API',
      version: '1.0.0',
      description: 'Every answer is { code, msg, data }; code 0 is success.',
    },
    servers: [{ url: serverUrl || '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
    'x-error-codes': Object.entries(ERRORS).map(([name, e]) => ({
      name,
      code: e.code,
      status: e.status,
      message: e.en,
    })),
    paths,
  };
}
