import { AwfError } from '../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../domain/errors/error-codes';
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
}

/** `awf diagram`: a workflow's states and transitions as Graphviz DOT or a Mermaid flowchart. */
export class DiagramService {
  constructor(
    private readonly repository: WorkflowRepository,
    private readonly validator: WorkflowValidator,
  ) {}

  /**
   * Only a structurally broken workflow (a WORKFLOW error: a missing state, a parse error) is
   * refused, since its graph would be wrong; USER problems such as an uninstalled plugin are not
   * the drawing's concern.
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
    const broken = report.errors.filter((e) => categoryOf(e.code) === 'WORKFLOW');
    if (!loaded.workflow || broken.length)
      throw validationError({ ...report, errors: broken.length ? broken : report.errors });
    const workflow = loaded.workflow;
    if (request.highlight !== undefined && !findStep(workflow, request.highlight)) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `--highlight "${request.highlight}" is not a state of ${workflow.name}`,
        { highlight: request.highlight },
        `Pick one of: ${workflow.steps.map((s) => s.name).join(', ')}.`,
      );
    }
    const graph = buildWorkflowGraph(workflow, request.highlight);
    const text = request.format === 'mermaid' ? renderMermaid(graph, direction) : renderDot(graph, direction);
    return { workflow: workflow.name, format: request.format, text };
  }
}
