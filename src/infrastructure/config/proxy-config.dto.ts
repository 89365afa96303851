import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Min, MinLength, ValidateNested,
} from 'class-validator';

/** class-validator shapes of the proxy config; the loader checks unknown keys separately. */
export class PluginToolSpecDto {
  @IsString() @MinLength(1) plugin!: string;
  @IsArray() @IsString({ each: true }) expose!: string[];
}

export class TelemetryDto {
  @IsIn(['none', 'otlp', 'console', 'file']) exporter!: 'none' | 'otlp' | 'console' | 'file';
  @IsOptional() @Matches(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/) traceparent?: string;
  @IsOptional() @IsString() endpoint?: string;
  @IsOptional() @IsString() file?: string;
  @IsOptional() @IsString() service_name?: string;
}

export class LimitsDto {
  @IsOptional() @IsInt() @Min(1) read_max_bytes?: number;
  @IsOptional() @IsInt() @Min(1) read_default_lines?: number;
  @IsOptional() @IsInt() @Min(1) line_max_chars?: number;
  @IsOptional() @IsInt() @Min(1) write_max_bytes?: number;
  @IsOptional() @IsInt() @Min(1) bash_default_timeout_ms?: number;
  @IsOptional() @IsInt() @Min(1) bash_max_timeout_ms?: number;
  @IsOptional() @IsInt() @Min(1) bash_output_max_chars?: number;
  @IsOptional() @IsInt() @Min(1) glob_max_results?: number;
  @IsOptional() @IsInt() @Min(1) grep_max_results?: number;
  @IsOptional() @IsArray() @Matches(/^[A-Za-z_][A-Za-z0-9_]*$/, { each: true }) env_passthrough?: string[];
}

export class ProxyConfigDto {
  @IsInt() @IsIn([1]) version!: number;
  @IsBoolean() intercept_builtins!: boolean;
  @IsArray() @ValidateNested({ each: true }) @Type(() => PluginToolSpecDto) plugin_tools!: PluginToolSpecDto[];
  @IsOptional() @IsString() @Matches(/^\//, { message: 'root_dir must be an absolute path' }) root_dir?: string;
  @IsOptional() @IsString() workflow?: string;
  @IsOptional() @IsString() step?: string;
  @IsOptional() @IsString() run_id?: string;
  @IsOptional() @IsInt() @Min(1) owner_pid?: number;
  @IsOptional() @IsString() @Matches(/^\//, { message: 'events_path must be an absolute path' }) events_path?: string;
  @IsOptional() @ValidateNested() @Type(() => TelemetryDto) telemetry?: TelemetryDto;
  @IsOptional() @ValidateNested() @Type(() => LimitsDto) limits?: LimitsDto;
}

export const KNOWN_KEYS = {
  root: ['version', 'intercept_builtins', 'plugin_tools', 'root_dir', 'workflow', 'step', 'run_id', 'owner_pid', 'events_path', 'telemetry', 'limits'],
  plugin_tools: ['plugin', 'expose'],
  telemetry: ['exporter', 'traceparent', 'endpoint', 'file', 'service_name'],
  limits: [
    'read_max_bytes', 'read_default_lines', 'line_max_chars', 'write_max_bytes', 'bash_default_timeout_ms',
    'bash_max_timeout_ms', 'bash_output_max_chars', 'glob_max_results', 'grep_max_results', 'env_passthrough',
  ],
} as const;
