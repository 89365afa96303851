import { Inject } from '@nestjs/common';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { ExactApproval } from '../../../domain/ports/exact-approvals.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../../domain/ports/tokens';
import { parseDurationMs } from '../../../domain/workflow/duration';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { PROJECT_CONFIG } from '../../../infrastructure/config/project-config.module';
import { compilePolicy } from '../../../infrastructure/config/tool-scope.resolver';
import {
  ExactApprovalStore,
  exactApprovalsFile,
  keptApprovals,
  policyDigest,
} from '../../../infrastructure/policy/exact-approval.store';
import { globalFlags } from '../global-flags';
import { policyLayers, profileOf } from '../serve/serve-mcp';
import { renderTable } from '../table.renderer';

/** The data dir is read from the environment, which `--storage` has set by now. */
const store = new ExactApprovalStore();

const invalid = (message: string, hint: string): AwfError =>
  new AwfError(ErrorCodes.CLI_INVALID_ARGS, message, {}, hint);

/**
 * `awf approvals grant <tool> --args JSON`: an exact approval ahead of time (ADR 265), for the
 * calls of `awf serve`'s `/mcp` under a profile's policy (the profile `default` unless named).
 */
@SubCommand({
  name: 'grant',
  arguments: '<tool>',
  description: "Approve ahead of time the calls of a tool with exactly these arguments, under /mcp's policy",
})
export class ApprovalsGrantCommand extends CommandRunner {
  constructor(
    @Inject(PROJECT_CONFIG) private readonly project: ProjectConfig,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
  ) {
    super();
  }

  async run([tool]: string[], o: { args?: Record<string, unknown>; expires?: number; mcpProfile?: string }) {
    if (!o.args)
      throw invalid(
        'awf approvals grant needs --args',
        'Give the call\'s arguments as JSON: --args \'{"file_path":"a.txt"}\'.',
      );
    const name = o.mcpProfile ?? 'default';
    const policy = compilePolicy(policyLayers(this.project, name, profileOf(this.project, name)));
    const shown = JSON.parse(this.masker.mask(JSON.stringify(o.args))) as Record<string, unknown>;
    const expiresInMs = o.expires ?? 3_600_000;
    const file = exactApprovalsFile();
    const kept = store.add(file, tool, o.args, policyDigest(policy), { by: 'person', who: 'cli', expiresInMs, shown });
    if (globalFlags(this.command).format === 'json') process.stdout.write(`${JSON.stringify(kept)}\n`);
    else
      process.stdout.write(
        `granted ${kept.id}: ${tool} with these arguments, until ${kept.expires} (profile ${name})\n`,
      );
  }

  @Option({ flags: '--args <json>', description: "the call's arguments as a JSON object", required: true })
  parseArgs(value: string): Record<string, unknown> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw invalid('--args must be a JSON object', 'Quote it for the shell: --args \'{"file_path":"a.txt"}\'.');
    return parsed as Record<string, unknown>;
  }

  @Option({ flags: '--expires <duration>', description: 'how long it holds: 30m, 8h (default 1h)' })
  parseExpires(value: string): number {
    const ms = parseDurationMs(value);
    if (!ms) throw invalid(`--expires "${value}" is not a duration`, 'Use a duration such as 30m, 8h or 90s.');
    return ms;
  }

  @Option({
    flags: '--mcp-profile <name>',
    description: 'the /mcp profile whose policy it holds under (default: default)',
  })
  parseProfile(value: string): string {
    return value;
  }
}

/** `awf approvals list`: the exact approvals kept in this data dir, not yet expired. */
@SubCommand({ name: 'list', description: 'List the exact approvals kept (not yet expired)' })
export class ApprovalsListCommand extends CommandRunner {
  async run(): Promise<void> {
    const kept = keptApprovals().list();
    const format = globalFlags(this.command).format;
    if (format === 'json') return void process.stdout.write(`${JSON.stringify({ approvals: kept })}\n`);
    if (kept.length === 0) return void process.stdout.write('no exact approvals are kept\n');
    const rows = [['ID', 'TOOL', 'ARGUMENTS', 'BY', 'EXPIRES'], ...kept.map(row)];
    process.stdout.write(renderTable(rows, format === 'table'));
  }
}

function row(a: ExactApproval): string[] {
  const args = JSON.stringify(a.args);
  return [a.id, a.tool, args.length > 60 ? `${args.slice(0, 57)}...` : args, a.who ?? a.by, a.expires];
}

/** `awf approvals revoke <id>`: the next such call asks again. */
@SubCommand({
  name: 'revoke',
  arguments: '<id>',
  description: 'Revoke an exact approval: the next such call asks again',
})
export class ApprovalsRevokeCommand extends CommandRunner {
  async run([id]: string[]): Promise<void> {
    const gone = keptApprovals().revoke(id);
    process.stdout.write(`revoked ${gone.id} (${gone.tool})\n`);
  }
}

export const APPROVALS_SUBCOMMANDS = [ApprovalsGrantCommand, ApprovalsListCommand, ApprovalsRevokeCommand];

@Command({
  name: 'approvals',
  description: 'Exact approvals: grant ahead of time, list, revoke (a tool, its arguments, the policy, an expiry)',
  subCommands: APPROVALS_SUBCOMMANDS,
})
export class ApprovalsCommand extends CommandRunner {
  async run(args: string[]): Promise<void> {
    throw invalid(
      args.length ? `unknown approvals command: ${args[0]}` : 'awf approvals needs a command',
      'Use: awf approvals grant <tool> --args JSON, awf approvals list or awf approvals revoke <id>.',
    );
  }
}
