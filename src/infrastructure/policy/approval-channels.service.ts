import { chmodSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { ApprovalChannel, ApprovalChannels } from '../../domain/ports/approval-channel.port';
import type { ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { ApprovalDesk } from './approval-desk';

const MAX_QUESTION_BYTES = 64 * 1024;

/**
 * Unix sockets, one per step that has `approve` rules, made 0600 in the step's private
 * (0700) dir: only this user's processes — the step's `mcp-serve` — can ask. One JSON line
 * in, one out; a malformed question is answered with a denial.
 */
export class SocketApprovalChannels implements ApprovalChannels {
  constructor(private readonly desk: ApprovalDesk) {}

  open(socketPath: string): Promise<ApprovalChannel> {
    const clients = new Set<Socket>();
    const server = createServer((socket) => {
      clients.add(socket);
      socket.on('close', () => clients.delete(socket));
      socket.on('error', () => socket.destroy());
      socket.setEncoding('utf8');
      let buffered = '';
      socket.on('data', (chunk: string) => {
        buffered += chunk;
        const nl = buffered.indexOf('\n');
        if (nl < 0 && buffered.length <= MAX_QUESTION_BYTES) return;
        socket.removeAllListeners('data');
        const request = nl < 0 ? undefined : parseRequest(buffered.slice(0, nl));
        const answer = request ? this.desk.decide(request) : Promise.resolve({ answer: 'deny', by: 'no channel' });
        void answer.then((a) => socket.end(`${JSON.stringify(a)}\n`));
      });
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        chmodSync(socketPath, 0o600);
        resolve({
          close: () => {
            for (const c of clients) c.destroy();
            server.close();
          },
        });
      });
    });
  }
}

function parseRequest(line: string): ApprovalRequest | undefined {
  try {
    const r = JSON.parse(line) as ApprovalRequest;
    const ok =
      typeof r.tool === 'string' &&
      typeof r.args === 'object' &&
      r.args !== null &&
      Array.isArray(r.rules) &&
      typeof r.auto === 'boolean';
    return ok ? r : undefined;
  } catch {
    return undefined;
  }
}
