import { CommandRunner, SubCommand } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { fieldDiff, PINNED_FIELDS, type PinFile, type ToolChange } from '../../../domain/policy/tool-pin';
import { ToolPinStore } from '../../../infrastructure/core/tool-pin.store';

const MARK: Record<ToolChange['kind'], string> = { new: '+', changed: '~', removed: '-' };

/** `awf mcp trust <server>`: shows how the server's tools differ from their pin, then pins them (ADR 253). */
@SubCommand({
  name: 'trust',
  arguments: '<server>',
  description: "Show how an MCP server's tools changed since awf pinned them, then pin them as they are now",
})
export class McpTrustCommand extends CommandRunner {
  /** The data dir is read from the environment, which `--storage` has set by now. */
  private readonly pins = new ToolPinStore();

  async run([server]: string[]): Promise<void> {
    const { pinned, seen, changes } = this.pins.review(server);
    if (!pinned) {
      throw new AwfError(
        ErrorCodes.MCP_PIN_NONE,
        `no tools of MCP server "${server}" are pinned (${this.pins.path(server, 'pin')})`,
        { server },
        'awf pins a server the first time a step lists its tools; check the name and --storage.',
      );
    }
    if (!seen || changes.length === 0) {
      process.stdout.write(
        `MCP server "${server}": no change seen since its tools were pinned (${pinned.at}, ${pinned.digest}); ` +
          'nothing to trust\n',
      );
      return;
    }
    process.stdout.write(`${diffText(pinned, seen, changes)}`);
    const pin = this.pins.trust(server);
    process.stdout.write(
      `pinned ${Object.keys(pin.tools).length} tool(s) of "${server}" (${pin.digest}); ` +
        'the next listing of its tools serves them\n',
    );
  }
}

/** The change for a person to read: one line per tool, then each differing field's leaves. */
export function diffText(pinned: PinFile, seen: PinFile, changes: readonly ToolChange[]): string {
  const lines = [
    `MCP server "${seen.server}": ${changes.length} tool change(s) since the pin of ${pinned.at}, ` +
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
