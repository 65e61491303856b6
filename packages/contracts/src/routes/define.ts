// What one endpoint is, written once: method, path, the schemas of its params, query, body and
// answers, its error statuses, who may call it and whether it needs a license. The server
// registers its routes from these entries, the OpenAPI document comes from them, and the typed
// client calls them.
import type { z } from 'zod';
import type { JsonText } from '../client/json-text.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The error statuses of docs/api.md. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 424 | 429 | 503;

/**
 * Who may call a route. The server turns `public` into no check and every other value into "a
 * signed-in caller" (session cookie or X-API-Key); `admin` is then checked by the service (an
 * enabled admin, docs/product.md, Shell §6), and `session` by the route kit (a session cookie,
 * not an API key: API keys are managed from a signed-in session, docs/decisions.md).
 */
export type RouteAuth = 'public' | 'user' | 'admin' | 'session';

/** Bytes rather than JSON: a media upload's body, or a file, zip or page in the answer. */
export interface RawContent {
  readonly raw: string;
}

/** `raw('image/webp')`: the content type (or a description of the types) of the bytes. */
export function raw(contentType: string): RawContent {
  return { raw: contentType };
}

/** The JSON answers of a route by success status; most have only 200. */
export type JsonResponses =
  | { readonly 200: z.ZodType; readonly 201?: z.ZodType }
  | {
      readonly 201: z.ZodType;
    };

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Fastify style: `/api/datasets/:id`; every `:name` is a key of `params`. */
  readonly path: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType | RawContent;
  readonly responses: JsonResponses | RawContent;
  /** Error statuses answered with ErrorBody, unless `errorBodies` gives another schema. */
  readonly errors: readonly ErrorStatus[];
  readonly errorBodies?: Partial<Record<ErrorStatus, z.ZodType>>;
  readonly auth: RouteAuth;
  /** Refused with 403 without a valid license (the service checks, docs/product.md, Shell §6). */
  readonly license: boolean;
  readonly summary: string;
  readonly tags: readonly string[];
  /** Left out of the OpenAPI document (the SDK's package index, which pip reads). */
  readonly hidden?: boolean;
}

/** Checks an entry's shape once, at module load, and keeps its literal type for the client. */
export function defineRoute<const R extends RouteSpec>(route: R): R {
  const named = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
  if (named.length > 0 && !route.params)
    throw new Error(`${route.method} ${route.path}: path parameters need a params schema.`);
  if (route.method === 'GET' && route.body)
    throw new Error(`${route.method} ${route.path}: a GET has no body.`);
  return route;
}

export const isRaw = (value: unknown): value is RawContent =>
  typeof value === 'object' && value !== null && 'raw' in value;

// ---- types the client and the server derive from an entry

type Input<S> = S extends z.ZodType ? z.input<S> : never;
type Output<S> = S extends z.ZodType ? z.output<S> : never;

/**
 * A part of a call's input: required when its schema needs something, optional otherwise. A
 * body may also be JSON its caller serialised already (JsonText).
 */
type Part<K extends string, S, V = Input<S>> = [S] extends [z.ZodType]
  ? undefined extends Input<S>
    ? { [P in K]?: V }
    : object extends Input<S>
      ? { [P in K]?: V }
      : { [P in K]: V }
  : [S] extends [RawContent]
    ? { [P in K]: RawBody } & { contentType: string }
    : { [P in K]?: never };

/** What a raw body may be: whatever fetch sends (a Buffer, Blob, stream or string). */
export type RawBody = NonNullable<RequestInit['body']>;

type Field<R, K extends string> = R extends { readonly [P in K]: infer S } ? S : undefined;

/** The `{ params, query, body }` a call of route R takes. */
export type RouteInput<R extends RouteSpec> = Part<'params', Field<R, 'params'>> &
  Part<'query', Field<R, 'query'>> &
  Part<'body', Field<R, 'body'>, BodyInput<Field<R, 'body'>>>;

type BodyInput<S> = Input<S> | JsonText<Input<S>>;

type SuccessSchema<Res> = Res extends { readonly 200: infer A }
  ? Res extends { readonly 201: infer B }
    ? A | B
    : A
  : Res extends { readonly 201: infer B }
    ? B
    : never;

/** What a call of route R answers: the parsed JSON, or the Response itself for raw routes. */
export type RouteOutput<R extends RouteSpec> = R['responses'] extends RawContent
  ? Response
  : Output<SuccessSchema<R['responses']>>;

/** What a handler of route R may return for the server to serialise. */
export type RouteResult<R extends RouteSpec> = R['responses'] extends RawContent
  ? unknown
  : Input<SuccessSchema<R['responses']>>;

/** The parsed params, query and body a handler of route R receives. */
export type RouteParams<R extends RouteSpec> = Parsed<Field<R, 'params'>>;
export type RouteQuery<R extends RouteSpec> = Parsed<Field<R, 'query'>>;
export type RouteBody<R extends RouteSpec> = Parsed<Field<R, 'body'>>;
type Parsed<S> = [S] extends [z.ZodType] ? z.output<S> : unknown;
