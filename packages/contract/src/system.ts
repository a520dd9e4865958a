import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';

/** Calls of the service itself: health and the OpenAPI document. */
/** Health check and the OpenAPI document. */
export const SYSTEM_ROUTES = {
  health: defineRoute({
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Liveness and database check',
    tag: 'service',
    output: z.object({ status: z.literal('ok'), database: z.string() }),
  }),
  openapi: defineRoute({ method: 'GET', path: '/openapi.json', auth: 'none', summary: 'This API as an OpenAPI 3.1 document', tag: 'service', isBlob: true }),
} as const satisfies Record<string, TRouteDef>;
