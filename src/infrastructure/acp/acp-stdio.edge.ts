// The only importer of the ACP SDK (@agentclientprotocol/sdk, ESM only): its types are imported
// as types, its code is required when `awf acp-serve` starts (Node >= 20.19 requires ES modules).
import type * as Acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { AcpSessions } from '../../application/acp/acp-sessions.service';
import { AwfError } from '../../domain/errors/awf-error';
import type {
  AcpEditor,
  AcpPermissionChoice,
  AcpPermissionRequest,
  AcpUpdate,
} from '../../domain/ports/acp-editor.port';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { AWF_VERSION } from '../../version';

const INVALID_PARAMS = -32602;
/** AWF's bound on one JSON-RPC line. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The Agent Client Protocol over stdio (newline-delimited JSON-RPC 2.0), through the SDK's
 * agent app: `initialize`, `session/new`, `session/prompt` and `session/cancel` go to the
 * sessions; every other method is the SDK's "method not found". The editor is reached back
 * through the same connection (`session/update`, `session/request_permission`).
 */
export class AcpStdioEdge implements AcpEditor {
  name?: string;
  private connection?: Acp.AgentConnection;

  constructor(
    private readonly logger: AppLogger,
    private readonly io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = {
      input: process.stdin,
      output: process.stdout,
    },
  ) {}

  /** Serves until the editor closes the connection (stdin ends); resolves then. */
  serve(sessions: AcpSessions): Promise<void> {
    const acp = require('@agentclientprotocol/sdk') as typeof Acp;
    const app = acp
      .agent({ name: 'awf' })
      .onRequest(acp.methods.agent.initialize, ({ params }) => {
        this.name = params.clientInfo?.name || undefined;
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: false,
            promptCapabilities: { image: false, audio: false, embeddedContext: false },
          },
          agentInfo: { name: 'awf', title: 'awf workflows', version: AWF_VERSION },
          authMethods: [],
        };
      })
      .onRequest(acp.methods.agent.session.new, ({ params }) => {
        if (!isAbsolute(params.cwd) || !isDirectory(params.cwd))
          throw new acp.RequestError(INVALID_PARAMS, `cwd must be an absolute path to a directory: "${params.cwd}"`);
        return { sessionId: sessions.open(params.cwd) };
      })
      .onRequest(acp.methods.agent.session.prompt, async ({ params }) => ({
        stopReason: await sessions.prompt(params.sessionId, params.prompt).catch((err: unknown) => {
          throw requestError(acp, err);
        }),
      }))
      .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        try {
          sessions.cancel(params.sessionId);
        } catch (err) {
          this.logger.warn({ err: String(err) }, 'acp-serve: session/cancel refused');
        }
      });
    const stream = acp.ndJsonStream(
      Writable.toWeb(this.io.output as Writable) as WritableStream<Uint8Array>,
      Readable.toWeb(this.io.input as Readable) as ReadableStream<Uint8Array>,
      { maxMessageBytes: MAX_MESSAGE_BYTES },
    );
    const connection = app.connect(stream);
    this.connection = connection;
    return connection.closed.then(() => {
      // The SDK cannot find the next message after one too long: it ends the connection (AWF answers -32700).
      const reason: unknown = connection.signal.reason;
      if (reason instanceof acp.MessageTooLargeError)
        this.logger.error({ limit: MAX_MESSAGE_BYTES }, `acp-serve: ${reason.message}; the connection is closed`);
    });
  }

  close(): void {
    this.connection?.close();
  }

  async update(sessionId: string, update: AcpUpdate): Promise<void> {
    await this.connection?.client.notify('session/update', { sessionId, update });
  }

  async requestPermission(request: AcpPermissionRequest, signal: AbortSignal): Promise<AcpPermissionChoice> {
    if (!this.connection) throw new Error('no editor is connected');
    const response = await this.connection.client.request(
      'session/request_permission',
      {
        sessionId: request.sessionId,
        toolCall: {
          toolCallId: request.toolCallId,
          title: request.title,
          kind: request.kind,
          status: 'pending',
          rawInput: request.rawInput,
        },
        options: [
          { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'allow_always', name: request.alwaysLabel, kind: 'allow_always' },
          { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
        ],
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    const outcome = response.outcome;
    if (outcome.outcome === 'cancelled') return 'cancelled';
    const choice = outcome.optionId;
    return choice === 'allow_once' || choice === 'allow_always' ? choice : 'reject_once';
  }
}

/** An AwfError the editor caused (USER.ACP.*) is invalid params, with the code as `data` (AWF's shape). */
function requestError(acp: typeof Acp, err: unknown): unknown {
  if (err instanceof AwfError && err.code.startsWith('USER.ACP.'))
    return new acp.RequestError(INVALID_PARAMS, err.message, err.code);
  return err;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
