// TelemetryModule (global): tracing set-up, the tool-call interceptors (span, log line,
// audit line). The only module that loads OpenTelemetry SDK packages, and only once
// `start` gets an exporter (lazy require).
// Must never import the MCP SDK, gRPC or another feature module; interceptors are found
// by their @InterceptsToolCalls marker.
import { Global, Module } from '@nestjs/common';
import { TELEMETRY_CONTROL } from '../../domain/ports/telemetry-control.port';
import { TRACER } from '../../domain/ports/tracer.port';
import { AuditTrailInterceptor } from './audit-trail.interceptor';
import { AuditTrailWriter } from './audit-trail.writer';
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
    AuditTrailWriter,
    ...interceptors,
  ],
  exports: [TRACER, TELEMETRY_CONTROL],
})
export class TelemetryModule {}
