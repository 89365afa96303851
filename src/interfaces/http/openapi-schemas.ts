import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { RUN_EVENT_KINDS } from '../../application/http-api/run-event-log';

/**
 * The named bodies of the API (the `components.schemas` of /openapi.json), in OpenAPI 3.1's
 * JSON Schema: what application/http-api/api-views.ts and workflow-view.ts make, and the problem.
 */
type Schema = SchemaObject | ReferenceObject;

export const ref = (name: keyof typeof SCHEMAS): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

const str: SchemaObject = { type: 'string' };
const int: SchemaObject = { type: 'integer' };
const time: SchemaObject = { type: 'string', format: 'date-time' };
const orNull = (s: Schema): SchemaObject => ({ anyOf: [s, { type: 'null' }] });
const object = (properties: Record<string, Schema>, optional: string[] = []): SchemaObject => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
});
const error = object({ code: str, message: str });
const awfStatus: SchemaObject = { type: 'string', enum: ['running', 'completed', 'failed', 'cancelled'] };

export const SCHEMAS = {
  Problem: {
    ...object(
      {
        type: { type: 'string', example: 'about:blank' },
        title: { type: 'string', example: 'Not Found' },
        status: int,
        detail: str,
        code: { type: 'string', description: "awf's error code (`awf error <code>` explains it)" },
        hint: { type: 'string', description: 'what to do about it' },
      },
      ['hint'],
    ),
    description: 'An RFC 7807 problem, with awf error code and hint as extension members.',
    additionalProperties: true,
  },
  WorkflowList: object({
    workflows: {
      type: 'array',
      items: object({
        name: str,
        scope: { type: 'string', enum: ['local', 'global', 'env'] },
        workflow: str,
        version: str,
        description: str,
      }),
    },
  }),
  Workflow: {
    type: 'object',
    description: "The workflow as AWF's Go struct marshals it (Go's field names).",
    properties: {
      Name: str,
      Description: str,
      Version: str,
      Author: str,
      Tags: orNull({ type: 'array', items: str }),
      Inputs: { type: 'array', items: { type: 'object', additionalProperties: true } },
      Env: orNull({ type: 'array', items: str }),
      Initial: str,
      Steps: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } },
      Hooks: { type: 'object', additionalProperties: true },
      SourceDir: str,
    },
    required: ['Name', 'Inputs', 'Initial', 'Steps'],
  },
  Validation: object({ errors: { type: 'null', description: 'null: the workflow is valid (422 otherwise)' } }),
  Accepted: object({ execution_id: str, status: { type: 'string', enum: ['accepted'] } }),
  Execution: object(
    {
      execution_id: str,
      workflow_name: str,
      status: awfStatus,
      current_step: str,
      started_at: time,
      updated_at: time,
      finished_at: orNull(time),
      duration_ms: orNull(int),
      resumable: { type: 'boolean' },
      error,
    },
    ['error'],
  ),
  ExecutionPage: object({
    executions: { type: 'array', items: { $ref: '#/components/schemas/Execution' } },
    next_cursor: orNull({ type: 'string', description: 'pass as `cursor` for the next page' }),
  }),
  ExecutionDetail: {
    allOf: [
      { $ref: '#/components/schemas/Execution' },
      object({
        inputs: { type: 'object', additionalProperties: str, description: 'secret values masked' },
        steps: {
          type: 'array',
          items: object(
            {
              name: str,
              type: str,
              status: str,
              started_at: time,
              duration_ms: int,
              exit_code: int,
              tool_calls: int,
              output: { type: 'string', description: 'secrets masked; its first 16 KiB (an addition to AWF)' },
              error,
            },
            ['error'],
          ),
        },
      }),
    ],
  },
  ToolCalls: {
    ...object(
      {
        run_id: str,
        workflow: str,
        status: str,
        started_at: time,
        finished_at: time,
        dir: str,
        steps: {
          type: 'array',
          items: object({
            step: str,
            summary: { type: 'object' },
            events: { type: 'array', items: { type: 'object' } },
          }),
        },
      },
      ['finished_at'],
    ),
    description: 'What `awf runs show -f json` prints.',
  },
  Approval: object(
    {
      approval_id: str,
      step: str,
      tool: str,
      arguments: { type: 'object', additionalProperties: true, description: 'secrets masked' },
      rule: { type: 'string', description: 'the first `approve` rule the call matched' },
      rules: { type: 'array', items: str },
      requested_at: time,
      scopes: {
        type: 'array',
        items: { type: 'string', enum: ['once', 'step', 'exact'] },
        description: 'a run on a worker: the scopes it may be answered with',
      },
      decision: { type: 'string', enum: ['approve', 'deny'] },
      scope: { type: 'string', enum: ['once', 'step', 'exact'] },
      by: { type: 'string', description: "the token's name, `local`, or `timeout`" },
      resolved_at: time,
    },
    ['scopes', 'decision', 'scope', 'by', 'resolved_at'],
  ),
  ApprovalList: object({ approvals: { type: 'array', items: { $ref: '#/components/schemas/Approval' } } }),
  PendingApprovals: object({
    approvals: {
      type: 'array',
      items: {
        allOf: [
          { $ref: '#/components/schemas/Approval' },
          object(
            {
              execution_id: str,
              source: { type: 'string', enum: ['mcp'], description: 'a call of a `/mcp` client, not of a run' },
            },
            ['source'],
          ),
        ],
      },
    },
  }),
  ExactApprovals: object({
    approvals: {
      type: 'array',
      items: object({
        id: str,
        tool: str,
        args_digest: str,
        policy_digest: str,
        args: { type: 'object', additionalProperties: true, description: 'secrets masked' },
        by: str,
        who: str,
        at: time,
        expires: time,
      }),
    },
  }),
  Session: object({ who: { type: 'string', description: "the token's name, or `local` on a server without tokens" } }),
  HistoryEntries: object({
    entries: {
      type: 'array',
      items: object({
        id: str,
        workflow_name: str,
        status: { type: 'string', enum: ['running', 'success', 'failed', 'cancelled'] },
        started_at: time,
        completed_at: orNull(time),
        duration_ms: int,
      }),
    },
  }),
  HistoryStats: object({
    TotalExecutions: int,
    SuccessCount: int,
    FailedCount: int,
    CancelledCount: int,
    AvgDurationMs: { type: 'number' },
  }),
  RunEvent: {
    ...object(
      {
        kind: { type: 'string', enum: [...RUN_EVENT_KINDS] },
        run_id: str,
        seq: { type: 'integer', minimum: 1 },
        status: str,
        step: str,
        error: str,
        prompt: str,
        prompt_id: str,
        tool: str,
        approval: { $ref: '#/components/schemas/Approval' },
      },
      ['status', 'step', 'error', 'prompt', 'prompt_id', 'tool', 'approval'],
    ),
    description: "One SSE frame's `data:` (its `id:` is `seq`).",
  },
} satisfies Record<string, SchemaObject>;
