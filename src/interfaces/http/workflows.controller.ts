import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { workflowListView } from '../../application/http-api/api-views';
import { workflowView } from '../../application/http-api/workflow-view';
import { type AwfError, isAwfError } from '../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../domain/errors/error-codes';
import { formatIssue } from '../../domain/workflow/validation-issue.model';
import { envelope, inputsOf, mapping, objectBody, workflowTarget } from './api-input';
import { HTTP_API, type HttpApiContext } from './http-api.context';
import { Answers, ApiRoutes, ChangesState, Fails, JsonBody, WorkflowPath } from './openapi.decorators';
import { ApiProblem } from './problem';

/** AWF's workflow routes: list, read, validate, and start a run (202, the run detached from the request). */
@ApiRoutes('workflows')
@Controller('api/workflows')
export class WorkflowsController {
  constructor(@Inject(HTTP_API) private readonly api: HttpApiContext) {}

  @Get()
  @ApiOperation({ summary: 'The workflows this server finds (local, global and env lookup dirs)' })
  @Answers(200, 'WorkflowList', 'The workflows.')
  async list() {
    return envelope(workflowListView(await this.api.workflows.list()));
  }

  @Get(':scope/:name')
  @ApiOperation({ summary: "One workflow, with Go's field names as AWF marshals it" })
  @WorkflowPath()
  @Answers(200, 'Workflow', 'The workflow.')
  @Fails(404)
  async get(@Param('scope') scope: string, @Param('name') name: string) {
    const target = workflowTarget(scope, name);
    const workflow = await mapping(
      () => this.api.workflows.describe(target),
      ErrorCodes.WORKFLOW_NOT_FOUND,
      () => notFound(target),
    );
    return envelope(workflowView(workflow));
  }

  /** 200 `{errors: null}` when valid; AWF answers an invalid workflow with 422 and its errors joined by `; `. */
  @Post(':scope/:name/validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Validates a workflow; 422 with every issue when it is invalid' })
  @WorkflowPath()
  @Answers(200, 'Validation', 'The workflow is valid.')
  @ChangesState(false)
  @Fails(404, 422)
  async validate(@Param('scope') scope: string, @Param('name') name: string) {
    const target = workflowTarget(scope, name);
    const report = await mapping(
      () => this.api.workflows.validate(target),
      ErrorCodes.WORKFLOW_NOT_FOUND,
      () => notFound(target),
    );
    if (!report.valid) {
      const lead = report.errors.find((i) => categoryOf(i.code) === 'WORKFLOW') ?? report.errors[0];
      throw new ApiProblem(422, lead.code as AwfError['code'], report.errors.map(formatIssue).join('; '), {
        errors: report.errors,
      });
    }
    return envelope({ errors: null });
  }

  @Post(':scope/:name/run')
  @HttpCode(202)
  @ApiOperation({ summary: 'Starts a run, detached from the request; follow it at /api/executions/{id}/events' })
  @WorkflowPath()
  @JsonBody("The run's inputs (numbers and booleans as text, lists and objects as JSON).", {
    properties: { inputs: { type: 'object', additionalProperties: true } },
  })
  @Answers(202, 'Accepted', 'The run has its id and runs.')
  @ChangesState()
  @Fails(400, 404, 422, 503)
  async run(@Param('scope') scope: string, @Param('name') name: string, @Body() body: unknown) {
    const target = workflowTarget(scope, name);
    const inputs = inputsOf(objectBody(body).inputs, 'inputs');
    try {
      const id = await this.api.hub.start(target, inputs);
      return envelope({ execution_id: id, status: 'accepted' });
    } catch (err) {
      if (!isAwfError(err)) throw err;
      if (err.code === ErrorCodes.WORKFLOW_NOT_FOUND) throw notFound(target);
      const category = categoryOf(err.code);
      if (category !== 'USER' && category !== 'WORKFLOW') throw err;
      throw new ApiProblem(
        422,
        err.code,
        `failed to start execution: ${err.message}`,
        err.hint ? { hint: err.hint } : {},
      );
    }
  }
}

function notFound(target: string): ApiProblem {
  return new ApiProblem(404, ErrorCodes.WORKFLOW_NOT_FOUND, `workflow not found: ${target}`, {
    hint: 'GET /api/workflows lists the workflows this server finds.',
  });
}
