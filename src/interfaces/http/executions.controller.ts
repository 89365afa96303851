import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import { executionDetailView, executionView, runStatusOf } from '../../application/http-api/api-views';
import { runRecordJson, runToolCalls } from '../../application/run-tool-calls';
import { isAwfError } from '../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../domain/errors/error-codes';
import type { RunDetail } from '../../domain/ports/run-index.port';
import {
  badRequest,
  decodeCursor,
  encodeCursor,
  envelope,
  executionNotFound,
  inputsOf,
  limitOf,
  mapping,
  objectBody,
  optionalString,
} from './api-input';
import { HTTP_API, type HttpApiContext } from './http-api.context';
import { ApiProblem } from './problem';
import {
  Answers,
  ApiRoutes,
  ChangesState,
  Fails,
  JsonBody,
  Limit,
  ExecutionId,
  Query as QueryParam,
  RunFilters,
} from './openapi.decorators';

/**
 * AWF's execution routes, read from the run history: every run on this machine (those of
 * `awf run` too), across restarts of the server. Cancel, resume and respond act on runs this
 * server runs; a run of another process is only read.
 */
@ApiRoutes('executions')
@Controller('api/executions')
export class ExecutionsController {
  constructor(@Inject(HTTP_API) private readonly api: HttpApiContext) {}

  /** Newest first; `next_cursor` (null on the last page) gives the next page as `cursor`. */
  @Get()
  @ApiOperation({ summary: 'Runs of the history (those of `awf run` too), newest first, a page at a time' })
  @Limit(50, 500)
  @QueryParam('cursor', 'Where the previous page ended: its `next_cursor`.')
  @RunFilters(false)
  @Answers(200, 'ExecutionPage', 'A page of runs.')
  @Fails(400)
  async list(@Query() q: Record<string, unknown>) {
    const limit = limitOf(q.limit, 50, 500);
    const runs = await this.api.index.list({
      limit: limit + 1,
      after: decodeCursor(q.cursor),
      workflow: optionalString(q.workflow, 'workflow'),
      status: q.status ? runStatusOf(String(q.status)) : undefined,
    });
    const page = runs.slice(0, limit);
    return envelope({
      executions: page.map((r) => executionView(r, this.api.masker)),
      next_cursor: runs.length > limit ? encodeCursor(page[page.length - 1]) : null,
    });
  }

  @Get(':id')
  @ExecutionId()
  @ApiOperation({ summary: 'One run with its inputs (secrets masked) and its steps' })
  @Answers(200, 'ExecutionDetail', 'The run.')
  @Fails(404)
  async get(@Param('id') id: string) {
    return envelope(executionDetailView(await this.detail(id), this.api.masker));
  }

  /** 204 once asked to stop (or when it has already ended); a run of another process is refused (409). */
  @Delete(':id')
  @ExecutionId()
  @HttpCode(204)
  @ApiOperation({ summary: 'Asks a run of this server to stop (recorded as cancelled, resumable)' })
  @ApiNoContentResponse({ description: 'Asked to stop, or already ended.' })
  @ChangesState(false)
  @Fails(404, 409)
  async cancel(@Param('id') id: string): Promise<void> {
    if (this.api.hub.cancel(id)) return;
    if ((await this.detail(id)).status === 'running')
      throw new ApiProblem(409, ErrorCodes.SERVE_CONFLICT, `run ${id} belongs to another awf process; stop it there`);
  }

  /** AWF's resume: 200 with the same id; `from_step` is `current` (the default), `previous` or a step. */
  @Post(':id/resume')
  @ExecutionId()
  @HttpCode(200)
  @ApiOperation({ summary: 'Resumes a failed, cancelled or interrupted run under the same id' })
  @JsonBody('Inputs to change, and where to start again.', {
    properties: {
      input_overrides: { type: 'object', additionalProperties: true },
      from_step: { type: 'string', description: '`current` (the default), `previous`, or a step name' },
    },
  })
  @Answers(200, 'Accepted', 'The run goes on.')
  @ChangesState()
  @Fails(400, 404, 409, 422, 503)
  async resume(@Param('id') id: string, @Body() body: unknown) {
    const b = objectBody(body);
    const inputs = inputsOf(b.input_overrides, 'input_overrides');
    const from = fromStep(optionalString(b.from_step, 'from_step'), await this.detail(id));
    try {
      return envelope({ execution_id: await this.api.hub.resume(id, inputs, from), status: 'accepted' });
    } catch (err) {
      if (!isAwfError(err) || !['USER', 'WORKFLOW'].includes(categoryOf(err.code))) throw err;
      throw new ApiProblem(
        422,
        err.code,
        `cannot resume execution: ${err.message}`,
        err.hint ? { hint: err.hint } : {},
      );
    }
  }

  /** The answer to the run's `input.required` (AWF's `{response: {PromptID, Value}}`); 204. */
  @Post(':id/respond')
  @ExecutionId()
  @HttpCode(204)
  @ApiOperation({ summary: "Answers the run's `input.required` (a conversation step's next turn)" })
  @JsonBody("AWF's answer: `Value` is the next message (empty ends the conversation).", {
    properties: {
      response: {
        type: 'object',
        properties: { PromptID: { type: 'string' }, Value: { type: 'string' } },
        required: ['Value'],
      },
    },
    required: ['response'],
  })
  @ApiNoContentResponse({ description: 'Answered.' })
  @ChangesState()
  @Fails(400, 404, 409)
  async respond(@Param('id') id: string, @Body() body: unknown): Promise<void> {
    const response = objectBody(objectBody(body).response);
    const value = response.Value ?? response.value;
    if (typeof value !== 'string') throw badRequest('"response.Value" must be a string');
    const promptId = optionalString(response.PromptID ?? response.prompt_id, 'response.PromptID');
    const outcome = this.api.hub.answer(id, promptId, value);
    if (outcome === 'answered') return;
    const why =
      outcome === 'not-waiting'
        ? 'no input is pending'
        : outcome === 'other-prompt'
          ? `the pending input is not ${promptId}`
          : (await this.detail(id)).status === 'running'
            ? 'the run belongs to another awf process'
            : 'the run has ended';
    throw new ApiProblem(409, ErrorCodes.SERVE_CONFLICT, `cannot respond: ${why}`);
  }

  /** What `awf runs show -f json` prints: the run's tool calls, step by step. */
  @Get(':id/tool-calls')
  @ExecutionId()
  @ApiOperation({ summary: "The run's tool calls step by step, with their policy decisions (`awf runs show`)" })
  @Answers(200, 'ToolCalls', 'The calls.')
  @Fails(404)
  async toolCalls(@Param('id') id: string) {
    const record = await mapping(
      () => runToolCalls(this.api.index, this.api.runs, id),
      ErrorCodes.RUN_NOT_FOUND,
      () => executionNotFound(id),
    );
    return envelope(runRecordJson(record));
  }

  private async detail(id: string): Promise<RunDetail> {
    try {
      return await this.api.index.get(id);
    } catch (err) {
      if (isAwfError(err) && err.code === ErrorCodes.RUN_NOT_FOUND) throw executionNotFound(id);
      throw err;
    }
  }
}

/** AWF's `from_step`: `current` is where the run stopped (resume's default), `previous` the step it finished last. */
function fromStep(from: string | undefined, run: RunDetail): string | undefined {
  if (from === undefined || from === 'current') return undefined;
  if (from !== 'previous') return from;
  const done = [...run.step_records].reverse().find((s) => s.status === 'success');
  if (done) return done.name;
  throw new ApiProblem(
    422,
    ErrorCodes.RUN_NOT_RESUMABLE,
    `cannot resume execution: run ${run.run_id} finished no step`,
  );
}
