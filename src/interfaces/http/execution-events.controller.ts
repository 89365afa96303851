import { Controller, Get, Headers, Inject, Param, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import type { RunEvent } from '../../application/http-api/run-event-log';
import { isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { executionNotFound } from './api-input';
import { HTTP_API, type HttpApiContext } from './http-api.context';
import { ApiRoutes, ExecutionId, Fails } from './openapi.decorators';

/** A comment line now and then keeps proxies and load balancers from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/**
 * `GET /api/executions/{id}/events`: the run's events as Server-Sent Events, one `id: <seq>`
 * and `data: <json>` per frame (no `event:` line, as AWF writes them), so a browser's
 * EventSource resumes by itself: `Last-Event-ID: n` replays what came after n. The stream ends
 * after the run's terminal event, and when the server stops.
 */
@ApiRoutes('executions')
@Controller('api/executions')
export class ExecutionEventsController {
  constructor(@Inject(HTTP_API) private readonly api: HttpApiContext) {}

  @Get(':id/events')
  @ApiOperation({ summary: "The run's events as Server-Sent Events; the stream ends after the terminal event" })
  @ExecutionId()
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Replay only the events after this `seq`.' })
  @ApiOkResponse({
    description: 'One frame per event: `id: <seq>` and `data: <RunEvent as JSON>`.',
    content: {
      'text/event-stream': {
        schema: { type: 'string', description: 'Frames whose `data:` is a RunEvent (components/schemas/RunEvent).' },
      },
    },
  })
  @Fails(404)
  async events(
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const after = /^\d+$/.test(lastEventId ?? '') ? Number(lastEventId) : 0;
    const stream = new SseStream(res);
    let stop: () => void;
    try {
      stop = await this.api.hub.subscribe(id, after, stream);
    } catch (err) {
      if (isAwfError(err) && err.code === ErrorCodes.RUN_NOT_FOUND) throw executionNotFound(id);
      throw err;
    }
    stream.open();
    // A client that goes away mid-stream stops being followed at once (the response's close:
    // the request's fires as soon as its body is read).
    res.on('close', () => {
      stop();
      stream.end();
    });
  }
}

class SseStream {
  private timer?: NodeJS.Timeout;
  private ended = false;

  constructor(private readonly res: ServerResponse) {}

  open(): void {
    if (this.res.headersSent || this.ended) return;
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx buffers responses unless told not to; a buffered stream is no stream.
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    this.timer = setInterval(() => this.res.write(': keep-alive\n\n'), KEEPALIVE_MS);
  }

  event(e: RunEvent): void {
    if (this.ended) return;
    this.open();
    this.res.write(`id: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`);
  }

  end(): void {
    if (this.ended) return;
    this.open();
    this.ended = true;
    clearInterval(this.timer);
    this.res.end();
  }
}
