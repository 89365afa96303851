import { ErrorCodes } from '../../../domain/errors/error-codes';
import { type PluginCatalog, unusablePlugin } from '../../../domain/ports/plugin-catalog.port';
import { type ValidationIssue, issue } from '../../../domain/workflow/validation-issue.model';
import type { OperationStep, Workflow } from '../../../domain/workflow/workflow.model';

/**
 * Each proxied step's `plugin_tools` name installed, usable plugins and operations they have,
 * and no tool name comes from two plugins (ADR 017's cross-checks).
 */
export async function checkPluginTools(wf: Workflow, plugins: PluginCatalog | undefined): Promise<ValidationIssue[]> {
  const steps = wf.steps.filter((s) => s.mcpProxy?.enable && s.mcpProxy.pluginTools.length > 0);
  if (steps.length === 0) return [];
  const catalog = plugins ? await plugins.list() : [];
  const installed = new Map(catalog.map((p) => [p.name, new Set(p.operations.map((o) => o.name))]));
  const out: ValidationIssue[] = [];
  for (const step of steps) {
    const at = `states.${step.name}.mcp_proxy.plugin_tools`;
    const toolNames = new Map<string, string>();
    step.mcpProxy!.pluginTools.forEach((spec, i) => {
      const listed = catalog.find((p) => p.name === spec.plugin);
      const why = listed && unusablePlugin(listed);
      if (why) {
        out.push(issue(ErrorCodes.MCP_PROXY_UNKNOWN_PLUGIN, `${at}[${i}].plugin`, why));
        return;
      }
      const ops = installed.get(spec.plugin);
      if (!ops) {
        out.push(
          issue(
            ErrorCodes.MCP_PROXY_UNKNOWN_PLUGIN,
            `${at}[${i}].plugin`,
            `plugin "${spec.plugin}" not found (installed: ${[...installed.keys()].join(', ') || 'none'})`,
          ),
        );
        return;
      }
      spec.expose.forEach((op, j) => {
        if (!ops.has(op))
          out.push(
            issue(
              ErrorCodes.MCP_PROXY_UNKNOWN_OPERATION,
              `${at}[${i}].expose[${j}]`,
              `operation "${op}" not found in plugin "${spec.plugin}"`,
            ),
          );
      });
      for (const op of spec.expose.length > 0 ? spec.expose : [...ops]) {
        const tool = `${spec.plugin}_${op}`;
        const other = toolNames.get(tool);
        if (other && other !== spec.plugin) {
          out.push(
            issue(
              ErrorCodes.MCP_PROXY_NAME_COLLISION,
              `${at}[${i}]`,
              `tool "${tool}" is exposed by both plugin "${other}" and plugin "${spec.plugin}"`,
            ),
          );
        }
        toolNames.set(tool, spec.plugin);
      }
    });
  }
  return out;
}

/**
 * An operation step names a built-in operation or an operation of an installed plugin. AWF's
 * validate does not look (a plugin may be installed before the run), so these are warnings;
 * the run fails at that step if it is still unknown then (`--strict`: errors now).
 */
export async function checkOperations(
  wf: Workflow,
  plugins: PluginCatalog | undefined,
  builtinOperations: readonly string[],
): Promise<ValidationIssue[]> {
  const steps = wf.steps.filter(
    (s): s is OperationStep =>
      s.type === 'operation' && s.operation.includes('.') && !builtinOperations.includes(s.operation),
  );
  if (steps.length === 0) return [];
  const catalog = plugins ? await plugins.list() : [];
  const installed = new Map(catalog.map((p) => [p.name, p.operations.map((o) => o.name)]));
  const out: ValidationIssue[] = [];
  for (const step of steps) {
    const [plugin, ...rest] = step.operation.split('.');
    const unusable = catalog.find((p) => p.name === plugin);
    const why = unusable && unusablePlugin(unusable);
    if (why) {
      out.push(issue(ErrorCodes.WORKFLOW_UNKNOWN_OPERATION, `states.${step.name}.operation`, why, 'warning'));
      continue;
    }
    const ops = installed.get(plugin);
    const known =
      [...builtinOperations, ...[...installed].flatMap(([p, o]) => o.map((op) => `${p}.${op}`))].join(', ') || 'none';
    if (ops?.includes(rest.join('.'))) continue;
    out.push(
      issue(
        ErrorCodes.WORKFLOW_UNKNOWN_OPERATION,
        `states.${step.name}.operation`,
        `unknown operation "${step.operation}" (known: ${known}); the step fails if it is still unknown when it runs`,
        'warning',
      ),
    );
  }
  return out;
}
