import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { workflowListView } from '../../application/http-api/api-views';
import { workflowView } from '../../application/http-api/workflow-view';
import { type AwfError, isAwfError } from '../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../domain/errors/error-codes';
import { formatIssue } from '../../domain/workflow/validation-issue.model';
import { envelope, inputsOf, mapping, objectBody, workflowTarget } from './api-input';
import { HTTP_API, type HttpApiContext } from './http-api.context';
import { ApiProblem } from './problem';

/** AWF's workflow routes: list, read, validate, and start a run (202, the run detached from the request). */
@Controller('api/workflows')
export class WorkflowsController {
  constructor(@Inject(HTTP_API) private readonly api: HttpApiContext) {}

  @Get()
  async list() {
    return envelope(workflowListView(await this.api.workflows.list()));
  }

  @Get(':scope/:name')
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
