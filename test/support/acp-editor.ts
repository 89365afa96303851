// An editor's end of `awf acp-serve`, made of the ACP SDK's client: the e2e tests drive the
// built CLI exactly as Zed would, over its stdin and stdout.
import type * as Acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { spawnAwf } from './cli';

const acp = require('@agentclientprotocol/sdk') as typeof Acp;

export type PermissionAnswer = 'allow_once' | 'allow_always' | 'reject_once';

export interface Turn {
  stopReason: string;
  updates: Acp.SessionUpdate[];
  /** The agent_message_chunk texts, joined. */
  text: string;
}

/** `awf acp-serve` with an SDK client connected to it, already initialized. */
export async function startEditor(options: {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  config?: string;
  answer?: PermissionAnswer;
}) {
  const child = spawnAwf(['acp-serve', '--config', options.config ?? 'acp.yaml'], {
    cwd: options.cwd,
    env: options.env,
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const permissions: Acp.RequestPermissionRequest[] = [];
  const app = acp.client({ name: 'acp-e2e' }).onRequest('session/request_permission', ({ params }) => {
    permissions.push(params);
    return { outcome: { outcome: 'selected' as const, optionId: options.answer ?? 'allow_once' } };
  });
  const connection = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  const agent = connection.agent;
  const init = await agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientInfo: { name: 'acp-e2e', version: '1.0.0' },
  });
  return {
    child,
    agent,
    init,
    permissions,
    stderr: () => stderr,
    /** A session in `cwd`, and the commands it announced. */
    async session(cwd = options.cwd) {
      const session = await agent.buildSession(cwd).start();
      const first = await session.nextUpdate();
      const commands = first.kind === 'session_update' ? first.update : undefined;
      return { session, commands };
    },
    /** Closes stdin, as an editor does when it is done; resolves with the exit code. */
    async close(): Promise<number | null> {
      const exited = child.exitCode !== null ? [child.exitCode] : once(child, 'exit');
      connection.close();
      child.stdin.end();
      return ((await exited) as [number | null])[0];
    },
  };
}

/** Sends one prompt and reads the session's updates until its turn ends. */
export async function turn(session: Acp.ActiveSession, prompt: string | Acp.ContentBlock[]): Promise<Turn> {
  const sent = session.prompt(prompt);
  const updates: Acp.SessionUpdate[] = [];
  for (;;) {
    const m = await session.nextUpdate();
    if (m.kind === 'stop') break;
    updates.push(m.update);
  }
  const { stopReason } = await sent;
  const text = updates
    .map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : ''))
    .join('');
  return { stopReason, updates, text };
}

/** The `_meta.awf` of the message chunks: the codes of what went wrong. */
export function codes(t: Turn): unknown[] {
  return t.updates.flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' && u._meta ? [u._meta.awf] : []));
}
