import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiParam, ApiQuery, ApiResponse, ApiTags, type SchemaObject } from '@nestjs/swagger';
import { ref, SCHEMAS } from './openapi-schemas';

/**
 * The OpenAPI description of the routes, next to them: short decorators that say what a route
 * answers, in AWF's `{"body": …}` envelope or as RFC 7807 problems (application/problem+json).
 */

const WHY: Readonly<Record<number, string>> = {
  400: 'A query value or the body is not as described.',
  401: 'The server has tokens and the request has no valid `Authorization: Bearer` one.',
  403: 'A cross-site request that would change state.',
  404: 'No such workflow, execution or approval.',
  409: 'The request conflicts with the run as it is now.',
  413: 'The body is over 1 MiB.',
  415: 'The body is not `application/json`.',
  421: 'The `Host` header names no address this server answers for (DNS rebinding).',
  422: "The workflow or its inputs are at fault (awf's USER.* or WORKFLOW.* error).",
  500: 'A failure of awf itself (its log has the details).',
  503: 'The server is stopping, or the history cannot be read.',
};

/** `{"body": <schema>}` as application/json, with `status`. */
export const Answers = (status: number, schema: keyof typeof SCHEMAS, description: string) =>
  ApiResponse({
    status,
    description,
    content: {
      'application/json': { schema: { type: 'object', properties: { body: ref(schema) }, required: ['body'] } },
    },
  });

/** Failures of the route, each an RFC 7807 problem. */
export const Fails = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: WHY[status],
        content: { 'application/problem+json': { schema: ref('Problem') } },
      }),
    ),
  );

/**
 * A controller of the API: its routes under `tag`, behind the gate every request passes
 * (the bearer token when the server has tokens, the Host check), answered 500 when awf fails.
 */
export const ApiRoutes = (tag: string) => applyDecorators(ApiTags(tag), ApiBearerAuth('token'), Fails(401, 421, 500));

/** A route that changes state: the cross-site and body checks apply to it. */
export const ChangesState = (body = true) => (body ? Fails(403, 413, 415) : Fails(403));

/** An optional JSON object body. */
export const JsonBody = (description: string, schema: SchemaObject) =>
  ApiBody({ description, required: false, schema: { type: 'object', ...schema } });

export const PathParam = (name: string, description: string) =>
  ApiParam({ name, description, schema: { type: 'string' } });

export const ExecutionId = () => PathParam('id', 'The execution (run) id, as GET /api/executions lists it.');

/** The path of a workflow: AWF's `scope` and the workflow's name. */
export const WorkflowPath = () =>
  applyDecorators(
    ApiParam({
      name: 'scope',
      description:
        'Where the name is looked up: `local`, `global` or `env`; any other scope is the name of an installed workflow pack.',
      schema: { type: 'string', examples: ['local', 'speckit'] },
    }),
    PathParam('name', 'The workflow name, as GET /api/workflows lists it.'),
  );

export const Query = (name: string, description: string, schema: SchemaObject = { type: 'string' }) =>
  ApiQuery({ name, description, required: false, schema });

/** The history filters of GET /api/executions, /api/history and /api/history/stats. */
export const RunFilters = (withTimes: boolean) =>
  applyDecorators(
    Query('workflow', 'Only runs of this workflow.'),
    Query('status', "Only runs with this status, in AWF's words (`completed`, `failed`…) or awf's (`success`…)."),
    ...(withTimes
      ? [
          Query('since', 'Only runs started at or after this RFC 3339 time.', { type: 'string', format: 'date-time' }),
          Query('until', 'Only runs started before this RFC 3339 time.', { type: 'string', format: 'date-time' }),
        ]
      : []),
  );

export const Limit = (fallback: number, max: number) =>
  Query('limit', 'How many to list at most.', { type: 'integer', minimum: 1, maximum: max, default: fallback });
