// One log line per request, at debug level: the web app polls every few seconds, and two info
// lines per request buried everything else. Failures are still logged by the error handler.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.debug(
        { req: request, res: reply, responseTime: reply.elapsedTime },
        'request completed',
      );
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`Route ${request.method}:${request.url} not found`);
  }

  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    // A client that goes away mid-download is routine, not news.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      reply.log.debug({ res: reply }, 'stream closed prematurely');
    } else super.streamError(error, request, reply);
  }
}
