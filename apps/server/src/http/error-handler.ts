// Turns every failure into `{description, retriable}` with the right status. Bad input never
// becomes a 500; a 500 means a bug and is logged with its stack.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, TooManyRequests } from '../platform/errors.js';

export interface ErrorReply {
  status: number;
  body: { description: string; retriable: boolean; [extra: string]: unknown };
}

/** Problems a validation error lists; the rest are counted, so a huge bad body answers briefly. */
export const ISSUES_LISTED = 20;
/** A listed problem is cut to this many characters (a path can be a client's key of any length). */
const ISSUE_CHARS = 300;

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  /** zod's issue fields; a bounded array's summary issue carries `params.more`. */
  params?: { params?: { more?: unknown } };
}

function describeValidation(error: { validation: ValidationIssue[] }, context?: string): string {
  const parts: string[] = [];
  let more = 0;
  for (const issue of error.validation) {
    const summarized = issue.params?.params?.more;
    if (typeof summarized === 'number') {
      more += summarized;
      continue;
    }
    if (parts.length === ISSUES_LISTED) {
      more++;
      continue;
    }
    const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const where = [context, path].filter(Boolean).join('.');
    const part = where ? `${where}: ${issue.message}` : (issue.message ?? 'invalid value');
    parts.push(part.length > ISSUE_CHARS ? `${part.slice(0, ISSUE_CHARS)}…` : part);
  }
  if (more > 0)
    parts.push(`… and ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'}`);
  return parts.join('; ');
}

export function toErrorReply(error: unknown, bodyLimitBytes: number): ErrorReply {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: { ...error.details, description: error.message, retriable: error.retriable },
    };
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 400,
      body: {
        description: describeValidation(error as never, fastifyError.validationContext),
        retriable: false,
      },
    };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        body: {
          description: `The request body is larger than the limit of ${(bodyLimitBytes / 1024 / 1024).toFixed(0)} MB. Send smaller batches.`,
          retriable: false,
        },
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: 400,
        body: {
          description: `The request body is not valid JSON: ${fastifyError.message}`,
          retriable: false,
        },
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        body: { description: 'The request body is empty: send a JSON object.', retriable: false },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        body: { description: 'Unsupported Content-Type: send application/json.', retriable: false },
      };
  }
  if (fastifyError instanceof SyntaxError) {
    return {
      status: 400,
      body: {
        description: `The request body is not valid JSON: ${fastifyError.message}`,
        retriable: false,
      },
    };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { description: fastifyError.message, retriable: status === 429 } };
  }
  return {
    status: 500,
    body: {
      description: 'Internal server error. The details are in the server log.',
      retriable: true,
    },
  };
}

export function registerErrorHandler(app: FastifyInstance, bodyLimitBytes: number): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorReply(error, bodyLimitBytes);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof TooManyRequests && error.retryAfterSeconds !== undefined)
      void reply.header('Retry-After', String(error.retryAfterSeconds));
    void reply.status(status).send(body);
  });
}
