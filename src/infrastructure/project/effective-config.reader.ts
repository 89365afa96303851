import { processSettings } from '../../domain/settings/process-settings';
import { awfDirs } from '../../application/workflow/run/awf-dirs';
import { relative, resolve } from 'node:path';
import type {
  ConfigFlags,
  ConfigReport,
  ConfigSetting,
  EffectiveConfig,
} from '../../domain/ports/effective-config.port';
import { DEFAULT_HISTORY_OUTPUT_BYTES } from '../../domain/workflow/output-truncation';
import { loadProjectConfig } from '../config/project-config.loader';
import { pluginSearchDirs } from '../plugins/plugin-paths';
import { DEFAULT_SERVICE_NAME, DEFAULT_TRACE_FILE, resolveTelemetrySettings } from '../telemetry/telemetry-settings';
import { workflowDirs } from '../workflow/workflow-paths';
import { FsPromptLibrary } from './fs-prompt.library';

/** Reads the settings where each area reads them, so `awf config show` cannot drift from what runs. */
export class EffectiveConfigReader implements EffectiveConfig {
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly cwd: string = process.cwd(),
  ) {}

  read(flags: ConfigFlags): ConfigReport {
    const project = loadProjectConfig(this.cwd);
    const fileLabel = project.file ? relative(this.cwd, project.file) : '.awf/config.yaml';
    const settings: ConfigSetting[] = [
      this.storage(flags),
      this.logLevel(flags),
      ...workflowDirs(this.env, this.cwd).map((d) => ({ key: 'workflows_path', value: d.dir, source: d.source })),
      ...new FsPromptLibrary(this.env, this.cwd)
        .searchPaths()
        .map((d) => ({ key: 'prompts_path', value: d.dir, source: d.source })),
      ...pluginSearchDirs(this.env, this.cwd).map((dir) => ({
        key: 'plugins_path',
        value: dir,
        source: this.env.AWF_PLUGINS_PATH ? 'env AWF_PLUGINS_PATH' : 'default',
      })),
      ...this.telemetry(project.telemetry, fileLabel),
      ...project.extensions.map((e) => ({ key: 'extensions', value: e, source: fileLabel })),
      ...Object.entries(project.inputs).map(([k, v]) => ({ key: `inputs.${k}`, value: v, source: fileLabel })),
      ...Object.keys(project.mcpServers).map((name) => ({
        key: `mcp_servers.${name}`,
        value: project.mcpServers[name],
        source: fileLabel,
      })),
      ...(project.policy ? [{ key: 'policy', value: project.policy, source: fileLabel }] : []),
      ...Object.entries(project.agents.openai_compatible ?? {}).map(([k, v]) => ({
        key: `agents.openai_compatible.${k}`,
        value: k === 'api_key' ? '***' : v,
        source: fileLabel,
      })),
      {
        key: 'history.max_output_bytes',
        value: project.history.maxOutputBytes,
        source: project.history.maxOutputBytes === DEFAULT_HISTORY_OUTPUT_BYTES ? 'default' : fileLabel,
      },
    ];
    return { ...(project.file ? { file: project.file } : {}), settings, inputs: project.inputs };
  }

  private storage(flags: ConfigFlags): ConfigSetting {
    const value = awfDirs(this.env).data_dir;
    const env = this.env.AWF_STORAGE ? 'env AWF_STORAGE' : this.env.XDG_DATA_HOME ? 'env XDG_DATA_HOME' : 'default';
    const source = flags.storage ? '--storage' : env;
    return { key: 'storage', value: resolve(value), source };
  }

  private logLevel(flags: ConfigFlags): ConfigSetting {
    const value = processSettings().logLevel ?? this.env.AWF_LOG_LEVEL ?? 'info';
    const source = flags.logLevelFrom ?? (this.env.AWF_LOG_LEVEL ? 'env AWF_LOG_LEVEL' : 'default');
    return { key: 'log_level', value, source };
  }

  /** The values `awf run` resolves (without --otel-* flags), each with the first source that set it. */
  private telemetry(project: Record<string, unknown>, fileLabel: string): ConfigSetting[] {
    const t = resolveTelemetrySettings({ env: this.env, project, cwd: this.cwd });
    const from = (vars: string[], key: string): string => {
      const set = vars.find((v) => this.env[v] !== undefined);
      return set ? `env ${set}` : project[key] !== undefined ? fileLabel : 'default';
    };
    const out: ConfigSetting[] = [
      { key: 'telemetry.exporter', value: t.exporter, source: from(['OTEL_TRACES_EXPORTER'], 'exporter') },
    ];
    if (t.endpoint) {
      const vars = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'];
      out.push({ key: 'telemetry.endpoint', value: t.endpoint, source: from(vars, 'endpoint') });
    }
    if (t.file) {
      const source = project.file !== undefined ? fileLabel : `default (${DEFAULT_TRACE_FILE})`;
      out.push({ key: 'telemetry.file', value: t.file, source });
    }
    const service = from(['OTEL_SERVICE_NAME'], 'service_name');
    out.push({ key: 'telemetry.service_name', value: t.serviceName ?? DEFAULT_SERVICE_NAME, source: service });
    return out;
  }
}
