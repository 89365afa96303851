import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ProcessLifetime } from '../../domain/ports/process-lifetime.port';
import { watchOwner } from './owner-watch';

export type ShutdownSignalName = 'SIGINT' | 'SIGTERM';

/**
 * Turns SIGINT/SIGTERM into an AbortSignal that every long-running piece observes, so
 * cleanup runs through the normal path (finally blocks, Nest shutdown hooks) instead of
 * the process dying mid-write. A second signal of the same kind forces the exit.
 */
@Injectable()
export class ProcessSignals implements ProcessLifetime, OnModuleDestroy {
  private readonly controller = new AbortController();
  private receivedSignal?: ShutdownSignalName;
  private listening = true;
  private readonly handler = (name: ShutdownSignalName): void => {
    if (this.receivedSignal) process.exit(name === 'SIGINT' ? 130 : 143);
    this.receivedSignal = name;
    this.controller.abort(new Error(`received ${name}`));
  };

  constructor() {
    process.on('SIGINT', this.handler);
    process.on('SIGTERM', this.handler);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Resolves once SIGINT or SIGTERM came (at once if one has): how the servers and workers wait. */
  stopped(): Promise<void> {
    const { signal } = this.controller;
    return signal.aborted
      ? Promise.resolve()
      : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  watchOwner(pid: number | undefined, onGone: () => void): () => void {
    return watchOwner(pid, onGone);
  }

  get received(): ShutdownSignalName | undefined {
    return this.receivedSignal;
  }

  onModuleDestroy(): void {
    if (!this.listening) return;
    this.listening = false;
    process.off('SIGINT', this.handler);
    process.off('SIGTERM', this.handler);
  }
}
