import { renameSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Command, CommandRunner, Option } from 'nest-commander';
import { type DiagramFormat, DiagramService } from '../../../application/diagram/diagram.service';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { globalFlags, jsonLine } from '../global-flags';

interface DiagramOptions {
  direction?: string;
  highlight?: string;
  output?: string;
}

const FILE_FORMATS: Record<string, DiagramFormat> = { '.dot': 'dot', '.gv': 'dot', '.mmd': 'mermaid' };

/** `awf diagram <workflow>`: DOT on stdout as AWF prints it (pipe it to Graphviz), or `-f mermaid`. */
@Command({
  name: 'diagram',
  arguments: '<workflow>',
  description: 'Draw a workflow as Graphviz DOT (default) or a Mermaid flowchart (-f mermaid)',
})
export class DiagramCommand extends CommandRunner {
  constructor(private readonly diagrams: DiagramService) {
    super();
  }

  async run([target]: string[], options: DiagramOptions): Promise<void> {
    const flag = globalFlags(this.command).format as string;
    const format = fileFormat(options.output) ?? (flag === 'mermaid' ? 'mermaid' : 'dot');
    const diagram = await this.diagrams.draw({ target, format, ...options });
    if (options.output) return writeWhole(options.output, diagram.text);
    const { workflow, text } = diagram;
    process.stdout.write(flag === 'json' ? jsonLine({ workflow, format, diagram: text }) : text);
  }

  @Option({ flags: '--direction <dir>', description: 'layout direction: TB (default), LR, BT, RL' })
  parseDirection(value: string): string {
    return value;
  }

  @Option({ flags: '--highlight <step>', description: 'draw this step emphasised' })
  parseHighlight(value: string): string {
    return value;
  }

  @Option({ flags: '-o, --output <file>', description: 'write to a file: .dot/.gv (DOT) or .mmd (Mermaid)' })
  parseOutput(value: string): string {
    if (fileFormat(value)) return value;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--output ${value}: awf writes .dot, .gv or .mmd files`,
      { output: value },
      `For an image, pipe the DOT to Graphviz: awf diagram <workflow> | dot -T${extname(value).slice(1) || 'png'} -o ${value}`,
    );
  }
}

function fileFormat(file?: string): DiagramFormat | undefined {
  return file === undefined ? undefined : FILE_FORMATS[extname(file).toLowerCase()];
}

/** Written beside the target and renamed over it, so a reader never sees half a diagram. */
function writeWhole(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o644 });
  renameSync(temp, file);
}
