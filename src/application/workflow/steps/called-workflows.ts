import { secretEnvValues } from '../run/workflow-env';
import type { FileProbe } from '../../../domain/ports/file-probe.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import type { WorkflowRepository } from '../../../domain/workflow/ports/workflow-repository.port';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import { resolveInputs } from '../run/input-resolver';
import type { WorkflowValidator } from '../validation/workflow-validator.service';
import { validationError, validationReport } from '../validation/validation-report';

export interface PreparedCall {
  workflow: Workflow;
  inputs: Record<string, string>;
  /** Inputs the caller passed that the child does not declare: dropped (AWF ignores them too). */
  ignored: string[];
}

/**
 * What a call_workflow needs before the child runs: the child loaded (beside the caller first),
 * validated exactly as `awf run` validates a top workflow, and its inputs resolved and checked.
 * Throws the same coded errors `awf run` would for the child.
 */
export class CalledWorkflows {
  constructor(
    private readonly repository: WorkflowRepository,
    private readonly validator: WorkflowValidator,
    private readonly files: FileProbe,
    private readonly masker: SecretMasker,
  ) {}

  async prepare(name: string, caller: Workflow, given: Record<string, string>): Promise<PreparedCall> {
    const loaded = await this.repository.loadCalled(name, caller.sourceDir);
    const report = validationReport(loaded, await this.validator.validate(loaded));
    if (!report.valid || !loaded.workflow) throw validationError(report);
    const workflow = loaded.workflow;
    const declared = new Set(workflow.inputs.map((i) => i.name));
    const passed = Object.fromEntries(Object.entries(given).filter(([k]) => declared.has(k)));
    const inputs = resolveInputs(workflow.inputs, passed, {}, this.files);
    this.masker.add(
      ...workflow.inputs.filter((d) => d.secret && inputs[d.name] !== undefined).map((d) => inputs[d.name]),
      ...secretEnvValues(workflow),
    );
    return { workflow, inputs, ignored: Object.keys(given).filter((k) => !declared.has(k)) };
  }
}
