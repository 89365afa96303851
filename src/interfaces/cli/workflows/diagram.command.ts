import { renameSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Command, CommandRunner, Option } from 'nest-commander';
import { type DiagramFormat, DiagramService } from '../../../application/diagram/diagram.service';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { ImageFormat } from '../../../domain/ports/diagram-images.port';
import type { ValidationIssue } from '../../../domain/workflow/validation-issue.model';
import { globalFlags, jsonLine } from '../global-flags';

interface DiagramOptions {
  direction?: string;
  highlight?: string;
  output?: string;
}

const FILE_FORMATS: Record<string, DiagramFormat | ImageFormat> = {
  '.dot': 'dot',
  '.gv': 'dot',
  '.mmd': 'mermaid',
  '.svg': 'svg',
  '.png': 'png',
  '.pdf': 'pdf',
};

/** `awf diagram <workflow>`: DOT on stdout as AWF prints it, or `-f mermaid`; `-o` also writes SVG, PNG or PDF. */
@Command({
  name: 'diagram',
  arguments: '<workflow>',
  description: 'Draw a workflow as Graphviz DOT (default), a Mermaid flowchart (-f mermaid), or -o an SVG/PNG/PDF',
})
export class DiagramCommand extends CommandRunner {
  constructor(private readonly diagrams: DiagramService) {
    super();
  }

  async run([target]: string[], options: DiagramOptions): Promise<void> {
    const flag = globalFlags(this.command).format as string;
    const wanted = fileFormat(options.output) ?? (flag === 'mermaid' ? 'mermaid' : 'dot');
    if (wanted === 'svg' || wanted === 'png' || wanted === 'pdf') {
      const image = await this.diagrams.drawImage({ target, ...options }, wanted);
      writeWhole(options.output!, image.data);
      return warnOfProblems(image.problems);
    }
    const diagram = await this.diagrams.draw({ target, format: wanted, ...options });
    warnOfProblems(diagram.problems);
    if (options.output) return writeWhole(options.output, diagram.text);
    const { workflow, format, text, problems } = diagram;
    const shape = (p: ValidationIssue) => ({ code: p.code, path: p.path, message: p.message });
    const json = { workflow, format, diagram: text, ...(problems.length ? { problems: problems.map(shape) } : {}) };
    process.stdout.write(flag === 'json' ? jsonLine(json) : text);
  }

  @Option({ flags: '--direction <dir>', description: 'layout direction: TB (default), LR, BT, RL' })
  parseDirection(value: string): string {
    return value;
  }

  @Option({ flags: '--highlight <step>', description: 'draw this step emphasised' })
  parseHighlight(value: string): string {
    return value;
  }

  @Option({
    flags: '-o, --output <file>',
    description: 'write to a file: .dot/.gv (DOT), .mmd (Mermaid), .svg, .png or .pdf (an image)',
  })
  parseOutput(value: string): string {
    if (fileFormat(value)) return value;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--output ${value}: awf writes .dot, .gv, .mmd, .svg, .png or .pdf files`,
      { output: value },
      `Name the file by what you want in it, e.g. -o ${value.slice(0, value.length - extname(value).length) || 'workflow'}.svg.`,
    );
  }
}

function fileFormat(file?: string): DiagramFormat | ImageFormat | undefined {
  return file === undefined ? undefined : FILE_FORMATS[extname(file).toLowerCase()];
}

/** The drawing is made either way; stderr says it shows a draft that does not validate. */
function warnOfProblems(problems: ValidationIssue[]): void {
  if (problems.length === 0) return;
  const n = problems.length;
  process.stderr.write(
    `warning: the workflow does not validate (${n} error${n > 1 ? 's' : ''}, drawn in red); \`awf validate\` lists them\n`,
  );
}

/** Written beside the target and renamed over it, so a reader never sees half a diagram. */
function writeWhole(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode: 0o644 });
  renameSync(temp, file);
}
