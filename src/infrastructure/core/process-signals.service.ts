import { Injectable, type OnModuleDestroy } from '@nestjs/common';

export type ShutdownSignalName = 'SIGINT' | 'SIGTERM';

/**
 * Turns SIGINT/SIGTERM into an AbortSignal that every long-running piece observes, so
 * cleanup runs through the normal path (finally blocks, Nest shutdown hooks) instead of
 * the process dying mid-write. A second signal of the same kind forces the exit.
 */
@Injectable()
export class ProcessSignals implements OnModuleDestroy {
  private readonly controller = new AbortController();
  private receivedSignal?: ShutdownSignalName;
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

  get received(): ShutdownSignalName | undefined {
    return this.receivedSignal;
  }

  onModuleDestroy(): void {
    process.off('SIGINT', this.handler);
    process.off('SIGTERM', this.handler);
  }
}
