// TelemetryModule (global): tracing set-up, the tool-call interceptors (span, log line,
// audit line) and the run history under $XDG_DATA_HOME/awf/runs. The only module that
// loads OpenTelemetry SDK packages, and only once `start` gets an exporter (lazy require).
// Must never import the MCP SDK, gRPC or another feature module; interceptors are found
// by their @InterceptsToolCalls marker.
import { Global, Module } from '@nestjs/common';
import { RUN_HISTORY } from '../../domain/ports/run-history.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { TELEMETRY_CONTROL } from '../../domain/ports/telemetry-control.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { TRACER } from '../../domain/ports/tracer.port';
import { AuditTrailInterceptor } from './audit-trail.interceptor';
import { AuditTrailWriter } from './audit-trail.writer';
import { RunHistoryService } from './run-history.service';
import { TelemetryService } from './telemetry.service';
import { ToolCallLogInterceptor } from './tool-call-log.interceptor';
import { TracingInterceptor } from './tracing.interceptor';

const interceptors = [TracingInterceptor, AuditTrailInterceptor, ToolCallLogInterceptor];

@Global()
@Module({
  providers: [
    TelemetryService,
    { provide: TRACER, useExisting: TelemetryService },
    { provide: TELEMETRY_CONTROL, useExisting: TelemetryService },
    { provide: RUN_HISTORY, useFactory: (masker: SecretMasker) => new RunHistoryService(undefined, masker), inject: [SECRET_MASKER] },
    AuditTrailWriter,
    ...interceptors,
  ],
  exports: [TRACER, TELEMETRY_CONTROL, RUN_HISTORY],
})
export class TelemetryModule {}
