import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Principal } from './auth.js';

/** A documented response of a route. */
export interface ResponseDoc {
  description: string;
  /** Name of a schema in components.schemas (see openapi.ts). */
  schema?: string;
  /** Media type when it is not JSON. */
  contentType?: string;
}

/** Context handed to a route handler: validated inputs plus the caller. */
export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** One HTTP route: its schemas (used both to validate and to write /openapi.json) and its handler. */
export interface RouteDef<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify-style path, e.g. `/api/memories/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Whether a bearer token is checked (when tokens are configured). */
  auth: boolean;
  params?: P;
  query?: Q;
  /** Body schema and its name in components.schemas. */
  body?: B;
  bodyName?: string;
  /** Success responses by status. */
  responses: Record<number, ResponseDoc>;
  /** Error statuses this route can answer (documented with the Error schema). */
  errors?: number[];
  handler: (ctx: RouteContext<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>;
}

/** Define a route with inferred handler types. */
export function route<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  def: RouteDef<P, Q, B>,
): RouteDef {
  return def as unknown as RouteDef;
}
