import { createConnection } from 'node:net';
import type { ApprovalAnswer, ApprovalGate, ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { ToolScope } from '../../domain/ports/tool-scope';

const ANSWERS = new Set(['once', 'always', 'exact', 'deny']);
const BY = new Set(['person', 'flag', 'auto', 'unattended', 'timeout', 'no channel']);
/** A token's name (api-tokens.ts) or `local`: nothing else reaches the audit trail. */
const WHO = /^[A-Za-z0-9._@-]{1,64}$/;
/** A question's id (a UUID from `awf serve`). */
const ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The `mcp-serve` end of the approval channel: one connection per question to the unix socket
 * the owning `awf run` made in the step's private dir, one JSON line each way. Whoever
 * answers, it is the run's terminal — the agent never sees the socket. Any trouble (no
 * socket, the run gone, a garbled answer) is a denial: an approval never fails open.
 */
export class SocketApprovalGate implements ApprovalGate {
  ask(request: ApprovalRequest, scope: ToolScope): Promise<ApprovalAnswer> {
    const path = scope.approvalSocket;
    if (!path) return Promise.resolve({ answer: 'deny', by: 'no channel' });
    return new Promise((resolve) => {
      let buffered = '';
      let done = false;
      const finish = (answer: ApprovalAnswer): void => {
        if (done) return;
        done = true;
        socket.destroy();
        resolve(answer);
      };
      const socket = createConnection({ path });
      socket.setEncoding('utf8');
      socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
      socket.on('data', (chunk: string) => {
        buffered += chunk;
        const nl = buffered.indexOf('\n');
        if (nl >= 0) finish(parseAnswer(buffered.slice(0, nl)));
        else if (buffered.length > 4096) finish({ answer: 'deny', by: 'no channel' });
      });
      socket.on('error', () => finish({ answer: 'deny', by: 'no channel' }));
      socket.on('close', () => finish({ answer: 'deny', by: 'no channel' }));
    });
  }
}

function parseAnswer(line: string): ApprovalAnswer {
  try {
    const a = JSON.parse(line) as Partial<ApprovalAnswer>;
    if (ANSWERS.has(a.answer as string) && BY.has(a.by as string))
      return {
        answer: a.answer!,
        by: a.by!,
        ...(typeof a.who === 'string' && WHO.test(a.who) ? { who: a.who } : {}),
        ...(typeof a.id === 'string' && ID.test(a.id) ? { id: a.id } : {}),
        ...(Number.isSafeInteger(a.expiresInMs) && a.expiresInMs! > 0 ? { expiresInMs: a.expiresInMs } : {}),
      };
  } catch {
    // fall through: a garbled answer denies
  }
  return { answer: 'deny', by: 'no channel' };
}
