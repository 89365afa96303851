import { CommandRunner, SubCommand } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { fieldDiff, PINNED_FIELDS, type PinFile, pinOwner, type ToolChange } from '../../../domain/policy/tool-pin';
import { ToolPinStore } from '../../../infrastructure/core/tool-pin.store';

const MARK: Record<ToolChange['kind'], string> = { new: '+', changed: '~', removed: '-' };

/**
 * `awf mcp trust <server|plugin:name|module:name>`: shows how the tools of an upstream server, a
 * plugin or an extension module differ from their pin, then pins them (ADR 253, ADR 305).
 */
@SubCommand({
  name: 'trust',
  arguments: '<server|plugin:name|module:name>',
  description:
    'Show how the tools of an MCP server (or plugin:<name>, module:<name>) changed since awf pinned them, ' +
    'then pin them as they are now',
})
export class McpTrustCommand extends CommandRunner {
  /** The data dir is read from the environment, which `--storage` has set by now. */
  private readonly pins = new ToolPinStore();

  async run([server]: string[]): Promise<void> {
    const { pinned, seen, changes } = this.pins.review(server);
    if (!pinned) {
      throw new AwfError(
        ErrorCodes.MCP_PIN_NONE,
        `no tools of ${pinOwner(server)} are pinned (${this.pins.path(server, 'pin')})`,
        { server },
        'awf pins tools the first time a step lists them; check the name and --storage.',
      );
    }
    if (!seen || changes.length === 0) {
      process.stdout.write(
        `${pinOwner(server)}: no change seen since its tools were pinned (${pinned.at}, ${pinned.digest}); ` +
          'nothing to trust\n',
      );
      return;
    }
    process.stdout.write(`${diffText(pinned, seen, changes)}`);
    const pin = this.pins.trust(server);
    process.stdout.write(
      `pinned ${Object.keys(pin.tools).length} tool(s) of ${pinOwner(server)} (${pin.digest}); ` +
        'the next listing of its tools serves them\n',
    );
  }
}

/** The change for a person to read: one line per tool, then each differing field's leaves. */
export function diffText(pinned: PinFile, seen: PinFile, changes: readonly ToolChange[]): string {
  const lines = [
    `${pinOwner(seen.server)}: ${changes.length} tool change(s) since the pin of ${pinned.at}, ` +
      `seen ${seen.at} (${pinned.digest} → ${seen.digest})`,
  ];
  for (const change of changes) {
    lines.push(`  ${MARK[change.kind]} ${change.tool} (${change.kind})`);
    const was = pinned.tools[change.tool]?.definition;
    const now = seen.tools[change.tool]?.definition;
    const fields = change.kind === 'changed' ? change.fields : PINNED_FIELDS;
    for (const field of fields)
      for (const line of fieldDiff(field, was?.[field], now?.[field])) lines.push(`      ${line}`);
  }
  return `${lines.join('\n')}\n`;
}
