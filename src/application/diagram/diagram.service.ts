import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { DiagramImages, ImageFormat } from '../../domain/ports/diagram-images.port';
import type { ValidationIssue } from '../../domain/workflow/validation-issue.model';
import type { WorkflowRepository } from '../../domain/workflow/ports/workflow-repository.port';
import { findStep } from '../../domain/workflow/workflow.model';
import { validationError, validationReport } from '../workflow/validation/validation-report';
import type { WorkflowValidator } from '../workflow/validation/workflow-validator.service';
import { type DiagramDirection, DIRECTIONS, renderDot } from './dot-diagram.renderer';
import { renderMermaid } from './mermaid-diagram.renderer';
import { buildWorkflowGraph } from './workflow-graph.builder';

export type DiagramFormat = 'dot' | 'mermaid';
export const DIAGRAM_FORMATS: readonly DiagramFormat[] = ['dot', 'mermaid'];

export interface DiagramRequest {
  target: string;
  format: DiagramFormat;
  direction?: string;
  highlight?: string;
}

export interface Diagram {
  workflow: string;
  format: DiagramFormat;
  text: string;
  /** The workflow's validation errors, each marked in red where it is. */
  problems: ValidationIssue[];
}

export interface DiagramImage {
  workflow: string;
  data: Uint8Array;
  problems: ValidationIssue[];
}

/** `awf diagram`: a workflow's states and transitions as Graphviz DOT, a Mermaid flowchart, or an image. */
export class DiagramService {
  constructor(
    private readonly repository: WorkflowRepository,
    private readonly validator: WorkflowValidator,
    private readonly images?: DiagramImages,
  ) {}

  /**
   * A draft that fails validation is still drawn, since that is when a picture helps most: each
   * error is marked in red on its step (its code under the name), a state a route names but that
   * does not exist is drawn dashed, and what belongs to no step goes in a note. Only a file with
   * no workflow in it (a YAML syntax error) is refused.
   */
  async draw(request: DiagramRequest): Promise<Diagram> {
    const direction = (request.direction ?? 'TB').toUpperCase() as DiagramDirection;
    if (!DIRECTIONS.includes(direction)) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `invalid direction "${request.direction}"`,
        { direction: request.direction },
        `Use --direction ${DIRECTIONS.join('|')}.`,
      );
    }
    const loaded = await this.repository.load(request.target);
    const report = validationReport(loaded, await this.validator.validate(loaded));
    if (!loaded.workflow) throw validationError(report);
    const workflow = loaded.workflow;
    if (request.highlight !== undefined && !findStep(workflow, request.highlight)) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `--highlight "${request.highlight}" is not a state of ${workflow.name}`,
        { highlight: request.highlight },
        `Pick one of: ${workflow.steps.map((s) => s.name).join(', ')}.`,
      );
    }
    const graph = buildWorkflowGraph(workflow, request.highlight, report.errors);
    const text = request.format === 'mermaid' ? renderMermaid(graph, direction) : renderDot(graph, direction);
    return { workflow: workflow.name, format: request.format, text, problems: report.errors };
  }

  /** The DOT drawing laid out by Graphviz and written as SVG, PNG or PDF. */
  async drawImage(request: Omit<DiagramRequest, 'format'>, format: ImageFormat): Promise<DiagramImage> {
    if (!this.images)
      throw new AwfError(ErrorCodes.SYSTEM_INTERNAL, 'awf diagram was built without its image renderer');
    const { workflow, text, problems } = await this.draw({ ...request, format: 'dot' });
    return { workflow, data: await this.images.render(text, format), problems };
  }
}
