import { Inject, Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { InstalledPlugin, PluginCatalog, PluginStatus } from '../../domain/ports/plugin-catalog.port';
import { APP_LOGGER } from '../../domain/ports/tokens';
import { PluginDiscovery } from './plugin-discovery.service';
import { PluginHost } from './plugin-host.service';
import { PluginStateStore } from './plugin-state.store';

export type { PluginStatus };

export interface PluginListing extends InstalledPlugin {
  dir: string;
}

/**
 * The installed plugins with their operations. Operations are only known by asking the
 * plugin, so each enabled plugin is started (all at once) and, unless something else was
 * already using it, stopped again. A plugin that fails is listed as broken, never thrown.
 */
@Injectable()
export class PluginCatalogService implements PluginCatalog {
  constructor(
    private readonly discovery: PluginDiscovery,
    private readonly host: PluginHost,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly state: PluginStateStore,
  ) {}

  async list(options: { startTimeoutMs?: number } = {}): Promise<PluginListing[]> {
    return Promise.all(
      this.discovery.discover().map(async (plugin): Promise<PluginListing> => {
        const base = {
          name: plugin.name,
          version: plugin.version,
          description: plugin.description,
          dir: plugin.dir,
          operations: [],
        };
        const enabled = this.state.isEnabled(plugin.name);
        if (plugin.problem) {
          this.logger.warn({ plugin: plugin.name, dir: plugin.dir, problem: plugin.problem }, 'plugin is broken');
          return { ...base, enabled, status: 'broken', problem: plugin.problem };
        }
        if (!enabled) return { ...base, enabled, status: 'disabled' };
        const wasRunning = this.host.isRunning(plugin.name);
        try {
          const running = await this.host.acquire(plugin, options.startTimeoutMs);
          return {
            ...base,
            enabled,
            status: 'enabled',
            operations: running.operations.map((o) => ({ name: o.name, description: o.description })),
          };
        } catch (err) {
          const problem = err instanceof Error ? err.message : String(err);
          this.logger.warn({ plugin: plugin.name, problem }, 'plugin did not start');
          return { ...base, enabled, status: 'broken', problem };
        } finally {
          if (!wasRunning) await this.host.stop(plugin.name);
        }
      }),
    );
  }

  /** Records the choice in plugins.json; a disabled plugin is never started. Returns the state file. */
  setEnabled(name: string, enabled: boolean): { name: string; enabled: boolean; stateFile: string } {
    const installed = this.discovery.discover();
    if (!installed.some((p) => p.name === name)) {
      throw new AwfError(
        ErrorCodes.PLUGIN_NOT_FOUND,
        `plugin "${name}" is not installed`,
        { plugin: name },
        `Installed plugins: ${installed.map((p) => p.name).join(', ') || '(none)'}. See \`awf plugin list\`.`,
      );
    }
    this.state.setEnabled(name, enabled);
    return { name, enabled, stateFile: this.state.file() };
  }
}
