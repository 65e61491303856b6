// Turns every failure into `{description, retriable}` with the right status. Bad input never
// becomes a 500; a 500 means a bug and is logged with its stack.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors.js';

export interface ErrorReply {
  status: number;
  body: { description: string; retriable: boolean; [extra: string]: unknown };
}

function describeValidation(
  error: FastifyError & { validation: { instancePath?: string; message?: string }[] },
  context?: string,
): string {
  const parts = error.validation.map((issue) => {
    const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const where = [context, path].filter(Boolean).join('.');
    return where ? `${where}: ${issue.message}` : (issue.message ?? 'invalid value');
  });
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
    void reply.status(status).send(body);
  });
}
