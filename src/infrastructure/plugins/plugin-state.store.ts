import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { pluginStateFile } from './plugin-paths';

interface StateEntry {
  enabled?: boolean;
  config?: Record<string, unknown>;
  disabled_at?: string;
  [key: string]: unknown;
}

/**
 * Enabled/disabled state and Init config per plugin, in AWF's `plugins.json` shape, so
 * both tools share it. A plugin with no entry is enabled. Fields awf does not use
 * (checksums, install source) are kept as they are.
 */
@Injectable()
export class PluginStateStore {
  file(): string {
    return pluginStateFile();
  }

  isEnabled(name: string): boolean {
    return this.read()[name]?.enabled !== false;
  }

  config(name: string): Record<string, unknown> {
    const config = this.read()[name]?.config;
    return typeof config === 'object' && config !== null && !Array.isArray(config) ? config : {};
  }

  setEnabled(name: string, enabled: boolean): void {
    const state = this.read();
    const entry: StateEntry = { ...(state[name] ?? {}), enabled };
    if (enabled) delete entry.disabled_at;
    else entry.disabled_at = new Date().toISOString();
    state[name] = entry;
    this.write(state);
  }

  /** AWF's `source_data` of an install; the enable state and config of an earlier install stay. */
  recordInstall(name: string, source: { repository: string; version: string }): void {
    const state = this.read();
    const now = new Date().toISOString();
    const previous = state[name]?.source_data as { installed_at?: string } | undefined;
    state[name] = {
      ...(state[name] ?? { enabled: true }),
      source_data: { ...source, installed_at: previous?.installed_at ?? now, updated_at: now },
    };
    this.write(state);
  }

  /** Drops a removed plugin's entry (its enable state, config and install record). */
  forget(name: string): void {
    const state = this.read();
    if (!(name in state)) return;
    delete state[name];
    this.write(state);
  }

  private read(): Record<string, StateEntry> {
    let text: string;
    try {
      text = readFileSync(this.file(), 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, StateEntry>)
        : {};
    } catch (err) {
      throw new AwfError(
        ErrorCodes.CONFIG_INVALID,
        `plugin state ${this.file()} is not valid JSON: ${(err as Error).message}`,
        { file: this.file() },
        'Fix or remove the file; a plugin with no entry counts as enabled.',
      );
    }
  }

  /** Temp file in the same directory, then rename: a reader never sees half a file. */
  private write(state: Record<string, StateEntry>): void {
    const file = this.file();
    mkdirSync(dirname(file), { recursive: true });
    const temp = join(dirname(file), `.plugins.json.${process.pid}.${Date.now()}.tmp`);
    try {
      writeFileSync(temp, JSON.stringify(state, null, 2) + '\n', { mode: 0o644 });
      renameSync(temp, file);
    } catch (err) {
      rmSync(temp, { force: true });
      throw new AwfError(ErrorCodes.SYSTEM_IO, `cannot write plugin state ${file}: ${(err as Error).message}`, {
        file,
      });
    }
  }
}
