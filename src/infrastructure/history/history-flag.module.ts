import { type DynamicModule, Global, Module } from '@nestjs/common';

/** The `--history` flag as the CLI parsed it (undefined: AWF_HISTORY_URL, then SQLite). */
export const HISTORY_URL_FLAG = Symbol.for('awf.HistoryUrlFlag');

/**
 * The flag's value for the HistoryModule of this container, given by AppModule.register. Apart
 * from the history's code, so that a command without a history (`mcp-serve`) loads none of it.
 */
@Global()
@Module({})
export class HistoryFlagModule {
  static forRoot(url?: string): DynamicModule {
    return {
      module: HistoryFlagModule,
      providers: [{ provide: HISTORY_URL_FLAG, useValue: url }],
      exports: [HISTORY_URL_FLAG],
    };
  }
}
