// TelemetryModule (global): tracing and metrics set-up, the tool-call interceptors (metrics,
// span, log line, audit line). The only module that loads OpenTelemetry SDK packages and
// nestjs-otel, and only once `start` gets an exporter for them (lazy require).
// Must never import the MCP SDK, gRPC or another feature module; interceptors are found
// by their @InterceptsToolCalls marker.
import { Global, Module } from '@nestjs/common';
import { AUDIT_TRAIL } from '../../domain/ports/audit-trail.port';
import { TELEMETRY_CONTROL } from '../../domain/ports/telemetry-control.port';
import { METRICS_RECORDER } from '../../domain/ports/metrics.port';
import { TRACER } from '../../domain/ports/tracer.port';
import { AuditTrailInterceptor } from './audit-trail.interceptor';
import { AuditTrailWriter } from './audit-trail.writer';
import { TelemetryService } from './telemetry.service';
import { ToolCallLogInterceptor } from './tool-call-log.interceptor';
import { ToolTelemetryInterceptor } from './tool-telemetry.interceptor';

const interceptors = [ToolTelemetryInterceptor, AuditTrailInterceptor, ToolCallLogInterceptor];

@Global()
@Module({
  providers: [
    TelemetryService,
    { provide: TRACER, useExisting: TelemetryService },
    { provide: TELEMETRY_CONTROL, useExisting: TelemetryService },
    { provide: METRICS_RECORDER, useFactory: (t: TelemetryService) => t.recorder, inject: [TelemetryService] },
    AuditTrailWriter,
    { provide: AUDIT_TRAIL, useExisting: AuditTrailWriter },
    ...interceptors,
  ],
  exports: [TRACER, TELEMETRY_CONTROL, METRICS_RECORDER, AUDIT_TRAIL],
})
export class TelemetryModule {}
