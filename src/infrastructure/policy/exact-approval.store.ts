import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { awfDirs } from '../../application/workflow/run/awf-dirs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ExactApproval, ExactApprovals, ExactGrant, KeptApprovals } from '../../domain/ports/exact-approvals.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import type { ToolPolicy } from '../../domain/policy/tool-policy';
import { pinDigest } from '../core/tool-pin.store';

interface ApprovalsFile {
  version: 1;
  approvals: ExactApproval[];
}

/** The digest an exact approval is bound to: of the policy's layers as given (ADR 265). */
const policyDigests = new WeakMap<ToolPolicy, string>();
export function policyDigest(policy: ToolPolicy | undefined): string {
  if (!policy) return pinDigest([]);
  let digest = policyDigests.get(policy);
  if (!digest) policyDigests.set(policy, (digest = pinDigest(policy.given)));
  return digest;
}

/** Where a scope's exact approvals are kept: beside its tool pins, in the same data dir. */
export function exactApprovalsFile(pinsDir?: string): string {
  const dataDir = pinsDir ? dirname(pinsDir) : resolve(awfDirs(process.env).data_dir);
  return join(dataDir, 'approvals', 'exact.json');
}

/**
 * Exact approvals (ADR 265) in one small JSON file per data dir, `<data dir>/approvals/exact.json`
 * (0600, in a 0700 dir), written through a temp file and a rename. The call path reads it again
 * only when its size or mtime changed, so a grant or revoke from `awf approvals` is seen by the
 * next call of a running proxy; expired approvals are dropped on each write.
 */
export class ExactApprovalStore implements ExactApprovals {
  private cache?: { file: string; stamp: string; approvals: ExactApproval[] };

  constructor(private readonly fixedFile?: string) {}

  find(scope: ToolScope, tool: string, args: Record<string, unknown>): ExactApproval | undefined {
    let approvals: ExactApproval[];
    try {
      approvals = this.load(this.fileOf(scope));
    } catch {
      return undefined; // an unreadable store approves nothing: the person is asked
    }
    if (approvals.length === 0) return undefined;
    const argsDigest = pinDigest(args);
    const policy = policyDigest(scope.policy);
    const now = new Date().toISOString();
    return approvals.find(
      (a) => a.tool === tool && a.args_digest === argsDigest && a.policy_digest === policy && a.expires > now,
    );
  }

  grant(scope: ToolScope, tool: string, args: Record<string, unknown>, grant: ExactGrant): ExactApproval {
    return this.add(this.fileOf(scope), tool, args, policyDigest(scope.policy), grant);
  }

  /** A grant under a policy digest computed elsewhere (`awf approvals grant`). */
  add(file: string, tool: string, args: Record<string, unknown>, policy: string, grant: ExactGrant): ExactApproval {
    const at = new Date();
    const approval: ExactApproval = {
      id: randomUUID(),
      tool,
      args_digest: pinDigest(args),
      policy_digest: policy,
      args: grant.shown,
      by: grant.by,
      ...(grant.who ? { who: grant.who } : {}),
      at: at.toISOString(),
      expires: new Date(at.getTime() + grant.expiresInMs).toISOString(),
    };
    this.write(file, [...this.live(file), approval]);
    return approval;
  }

  /** The approvals not yet expired, oldest first. */
  live(file: string): ExactApproval[] {
    const now = new Date().toISOString();
    return this.load(file).filter((a) => a.expires > now);
  }

  revoke(file: string, id: string): ExactApproval {
    const approvals = this.live(file);
    const gone = approvals.find((a) => a.id === id || (id.length >= 8 && a.id.startsWith(id)));
    if (!gone)
      throw new AwfError(
        ErrorCodes.APPROVAL_NOT_FOUND,
        `no exact approval ${id} is kept in ${file}`,
        { id, file },
        '`awf approvals list` shows the ones kept, with their ids.',
      );
    this.write(
      file,
      approvals.filter((a) => a !== gone),
    );
    return gone;
  }

  private fileOf(scope: ToolScope): string {
    return this.fixedFile ?? exactApprovalsFile(scope.pinsDir);
  }

  private load(file: string): ExactApproval[] {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return [];
    const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    if (this.cache?.file === file && this.cache.stamp === stamp) return this.cache.approvals;
    let parsed: ApprovalsFile | undefined;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as ApprovalsFile;
    } catch (err) {
      throw ioFailed(file, 'read', err);
    }
    if (parsed?.version !== 1 || !Array.isArray(parsed.approvals))
      throw new AwfError(
        ErrorCodes.SYSTEM_IO,
        `${file} is not a file of exact approvals awf wrote`,
        { file },
        'Remove it: every exact approval it held is then revoked.',
      );
    this.cache = { file, stamp, approvals: parsed.approvals };
    return parsed.approvals;
  }

  private write(file: string, approvals: ExactApproval[]): void {
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const body: ApprovalsFile = { version: 1, approvals };
      writeFileSync(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, file);
    } catch (err) {
      throw ioFailed(file, 'write', err);
    } finally {
      rmSync(temp, { force: true });
    }
    this.cache = undefined;
  }
}

/** The kept approvals of the environment's data dir (`--storage`), for `awf approvals` and `awf serve`. */
export function keptApprovals(store = new ExactApprovalStore()): KeptApprovals {
  return { list: () => store.live(exactApprovalsFile()), revoke: (id) => store.revoke(exactApprovalsFile(), id) };
}

function ioFailed(file: string, what: 'read' | 'write', err: unknown): AwfError {
  const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new AwfError(
    ErrorCodes.SYSTEM_IO,
    `cannot ${what} the exact approvals (${file}: ${why})`,
    { file },
    'awf keeps them under <data dir>/approvals: make it writable, or choose another with --storage.',
  );
}
