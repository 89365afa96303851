import { type Client, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { UpstreamCallOptions } from './upstream-result';

/**
 * What an upstream server sends during a call besides its result — log messages and elicitation
 * requests — goes back to the client that made the call. Neither carries the call it belongs to
 * (stdio has no such link; HTTP's stream is not exposed by the SDK), so it goes to the call in
 * flight on this server, the latest one when there are several.
 */
export class UpstreamCallChannels {
  private readonly inFlight: UpstreamCallOptions[] = [];

  /** The client's capabilities that let a server ask: elicitation in forms, defaults filled by the SDK. */
  static readonly capabilities = { elicitation: { form: { applyDefaults: true } } };

  constructor(
    private readonly server: string,
    private readonly log: AppLogger,
  ) {}

  /** Routes the client's log messages and elicitation requests to the calls in flight. */
  attach(client: Client): void {
    client.setNotificationHandler('notifications/message', (notification) => {
      this.latest()?.onLog?.(notification.params);
    });
    client.setRequestHandler('elicitation/create', (request) => {
      const ask = this.latest()?.elicit;
      if (!ask) {
        this.log.info({ server: this.server }, 'elicitation refused: no client to ask');
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          'awf cannot ask for input here: the MCP client calling this tool does not take elicitation requests',
        );
      }
      this.log.info({ server: this.server }, 'elicitation passed on to the client');
      return ask(request.params as Record<string, unknown>) as never;
    });
  }

  /** Marks `options` in flight until the returned function is called. */
  open(options: UpstreamCallOptions): () => void {
    this.inFlight.push(options);
    return () => {
      const at = this.inFlight.indexOf(options);
      if (at >= 0) this.inFlight.splice(at, 1);
    };
  }

  private latest(): UpstreamCallOptions | undefined {
    return this.inFlight[this.inFlight.length - 1];
  }
}
