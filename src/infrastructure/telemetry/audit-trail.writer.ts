import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import type { AuditTrail } from '../../domain/ports/audit-trail.port';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { APP_LOGGER } from '../../domain/ports/tokens';
import { formatAuditLine } from './audit-line';

/**
 * Appends audit lines to a step's `events_path`. The file is opened once, `O_APPEND`, mode
 * 0600, and each line goes out in a single `write` of at most 4 KiB, so lines from
 * concurrent calls (or processes) never interleave and a crash leaves whole lines only.
 * A failing disk never fails a tool call: it is logged once per file.
 */
@Injectable()
export class AuditTrailWriter implements AuditTrail, OnModuleDestroy {
  private readonly files = new Map<string, number>();
  private readonly broken = new Set<string>();

  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  append(path: string, event: ToolCallEvent): void {
    if (this.broken.has(path)) return;
    try {
      writeSync(this.fd(path), formatAuditLine(event));
    } catch (err) {
      this.broken.add(path);
      this.logger.warn(
        { events_path: path, error: (err as Error).message },
        'audit trail not writable; tool calls go on unrecorded',
      );
    }
  }

  onModuleDestroy(): void {
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
  }

  private fd(path: string): number {
    let fd = this.files.get(path);
    if (fd === undefined) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      fd = openSync(path, 'a', 0o600);
      this.files.set(path, fd);
    }
    return fd;
  }
}
