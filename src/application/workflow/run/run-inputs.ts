import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import type { InputDef, Workflow } from '../../../domain/workflow/workflow.model';
import { awfDirs } from './awf-dirs';
import { resolveInputs } from './input-resolver';
import { promptSearchPaths, resolvePromptInputs } from './prompt-inputs';
import { secretEnvValues } from './workflow-env';

/** Where a run's inputs come from: the flags, the project's `inputs:`, and on a terminal, the user. */
export interface InputSources {
  /** `--input` values as given. */
  inputs: Record<string, string>;
  projectInputs?: Record<string, unknown>;
  env: Record<string, string>;
  cwd: string;
  /** On a terminal: asked for each required input that has no value yet (AWF prompts for them). */
  askInput?: (input: InputDef) => Promise<string | undefined>;
}

/** A run's inputs, resolved as AWF resolves them, and their secrets handed to the masker. */
export class RunInputs {
  constructor(
    private readonly masker: SecretMasker,
    private readonly files: WorkflowFiles,
  ) {}

  /** Defaults, project inputs and flags; on a terminal, the required ones still missing are asked for. */
  async of(workflow: Workflow, sources: InputSources): Promise<Record<string, string>> {
    const given = this.flags(sources);
    if (sources.askInput) {
      const project = sources.projectInputs ?? {};
      for (const def of workflow.inputs) {
        if (!def.required || def.default !== undefined || given[def.name] !== undefined) continue;
        if (project[def.name] !== undefined && project[def.name] !== null) continue;
        const answer = await sources.askInput(def);
        if (answer !== undefined && answer !== '') given[def.name] = answer;
      }
    }
    return this.resolve(workflow, given, sources);
  }

  /** `given` over the project's inputs and the workflow's defaults (`awf resume`: the stored ones). */
  resolve(
    workflow: Workflow,
    given: Record<string, string>,
    sources: Pick<InputSources, 'projectInputs'>,
  ): Record<string, string> {
    return resolveInputs(workflow.inputs, given, sources.projectInputs ?? {}, this.files);
  }

  /** `--input` values, with `@prompts/<file>` replaced by that prompt's text (AWF: flags only, not config). */
  flags(sources: Pick<InputSources, 'inputs' | 'env' | 'cwd'>): Record<string, string> {
    const search = promptSearchPaths(sources.env, sources.cwd, awfDirs(sources.env));
    return resolvePromptInputs(sources.inputs, search, this.files);
  }

  /** Hands the secret inputs' values and the workflow's secret env values to the masker; returns their names. */
  maskSecrets(workflow: Workflow, inputs: Record<string, string>): Set<string> {
    const secret = new Set(workflow.inputs.filter((d) => d.secret).map((d) => d.name));
    this.masker.add(...[...secret].filter((name) => inputs[name] !== undefined).map((name) => inputs[name]));
    this.masker.add(...secretEnvValues(workflow));
    return secret;
  }
}
