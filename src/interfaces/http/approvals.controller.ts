import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import type { ApprovalDecision } from '../../application/http-api/pending-approvals';
import { isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { parseDurationMs } from '../../domain/workflow/duration';
import { badRequest, envelope, executionNotFound, objectBody } from './api-input';
import { HTTP_API, type HttpApiContext } from './http-api.context';
import { ApiProblem } from './problem';
import { Answers, ApiRoutes, ChangesState, Fails, ExecutionId, JsonBody, PathParam } from './openapi.decorators';
import { CALLER, type KnownCaller } from './request-security';

/**
 * The calls of a run that wait for a person (an `approve` rule matched), and their answers:
 * whoever holds a token answers in place of the `awf run` terminal. The answer goes into the
 * call's audit record with the token's name (`local` on a server without tokens).
 */
@ApiRoutes('approvals')
@Controller('api')
export class ApprovalsController {
  constructor(@Inject(HTTP_API) private readonly api: HttpApiContext) {}

  /** Every question the runs of this server wait on, oldest first, each with its run's id. */
  @Get('approvals')
  @ApiOperation({ summary: "Every call this server's runs wait on for a person, oldest first (arguments masked)" })
  @Answers(200, 'PendingApprovals', 'The pending approvals, each with its execution id (`/mcp` calls: `source: mcp`).')
  all() {
    const approvals = this.api.hub.approvals
      .listAll()
      .map((a) => (this.api.hub.isChannel(a.execution_id) ? { ...a, source: 'mcp' as const } : a));
    return envelope({ approvals });
  }

  /** The exact approvals kept in this server's data dir (ADR 265), as `awf approvals list` shows them. */
  @Get('approvals/exact')
  @ApiOperation({ summary: 'The exact approvals kept (a tool, its arguments, the policy, an expiry), oldest first' })
  @Answers(200, 'ExactApprovals', 'The exact approvals not yet expired (arguments masked).')
  exact() {
    return envelope({ approvals: this.api.exactApprovals.list() });
  }

  /** Revokes one: the next such call asks again. */
  @Delete('approvals/exact/:approvalId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revokes an exact approval: the next call with those arguments asks again' })
  @PathParam('approvalId', 'The exact approval, as listed.')
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ChangesState()
  @Fails(404)
  revokeExact(@Param('approvalId') approvalId: string): void {
    try {
      this.api.exactApprovals.revoke(approvalId);
    } catch (err) {
      if (!isAwfError(err) || err.code !== ErrorCodes.APPROVAL_NOT_FOUND) throw err;
      throw new ApiProblem(404, ErrorCodes.SERVE_NOT_FOUND, `no exact approval ${approvalId} is kept`, {
        hint: 'GET /api/approvals/exact lists the ones kept.',
      });
    }
  }

  /** The questions the run waits on now, oldest first (arguments masked). */
  @Get('executions/:id/approvals')
  @ExecutionId()
  @ApiOperation({ summary: 'The calls the run waits on for a person, oldest first (arguments masked)' })
  @Answers(200, 'ApprovalList', 'The pending approvals.')
  @Fails(404)
  async list(@Param('id') id: string) {
    await this.known(id);
    return envelope({ approvals: this.api.hub.approvals.list(id) });
  }

  /** `{"decision": "approve"|"deny", "scope": "once"|"step"|"exact", "expires"?: "1h"}`; 409 once decided or past. */
  @Post('executions/:id/approvals/:approvalId')
  @HttpCode(200)
  @ExecutionId()
  @ApiOperation({
    summary:
      'Approves or denies a call: this call (`once`), the rule for the rest of the step (`step`), or calls with ' +
      'these very arguments under this policy until `expires` (`exact`, default 1h; `awf approvals list`)',
  })
  @PathParam('approvalId', 'The approval, as listed.')
  @JsonBody('The answer.', {
    properties: {
      decision: { type: 'string', enum: ['approve', 'deny'] },
      scope: { type: 'string', enum: ['once', 'step', 'exact'], default: 'once' },
      expires: { type: 'string', description: 'With `exact`: how long it holds, a duration like `30m` or `8h`.' },
    },
    required: ['decision'],
  })
  @Answers(200, 'Approval', 'Decided: the approval with its answer.')
  @ChangesState()
  @Fails(400, 404, 409)
  async decide(
    @Param('id') id: string,
    @Param('approvalId') approvalId: string,
    @Body() body: unknown,
    @Req() req: KnownCaller,
  ) {
    const decision = answerOf(body, req[CALLER] ?? 'local');
    await this.known(id);
    const { outcome, approval } = this.api.hub.approvals.decide(id, approvalId, decision);
    if (outcome === 'decided') return envelope(approval);
    if (outcome === 'scope-not-offered')
      throw new ApiProblem(
        400,
        ErrorCodes.SERVE_BAD_REQUEST,
        `approval ${approvalId} is of a run on a worker: it takes scope ${approval!.scopes!.join(' or ')}`,
        {
          hint: 'Exact approvals are kept where they are recorded; grant one on the worker with `awf approvals grant`.',
        },
      );
    if (outcome === 'already-decided')
      throw new ApiProblem(409, ErrorCodes.SERVE_CONFLICT, `approval ${approvalId} was already answered`, {
        approval,
      });
    throw new ApiProblem(404, ErrorCodes.SERVE_NOT_FOUND, `run ${id} waits on no approval ${approvalId}`, {
      hint: `GET /api/executions/${id}/approvals lists the ones it waits on.`,
    });
  }

  private async known(id: string): Promise<void> {
    // `/mcp`'s questions are not a run of the history; a queued run may not be in it yet (no worker took it).
    if (this.api.hub.isChannel(id) || this.api.hub.isLive(id)) return;
    try {
      await this.api.index.get(id);
    } catch (err) {
      if (isAwfError(err) && err.code === ErrorCodes.RUN_NOT_FOUND) throw executionNotFound(id);
      throw err;
    }
  }
}

function answerOf(body: unknown, who: string): ApprovalDecision {
  const b = objectBody(body);
  if (b.decision !== 'approve' && b.decision !== 'deny') throw badRequest('"decision" must be "approve" or "deny"');
  const scope = b.scope ?? 'once';
  if (scope !== 'once' && scope !== 'step' && scope !== 'exact')
    throw badRequest('"scope" must be "once", "step" or "exact"');
  if (b.expires === undefined) return { decision: b.decision, scope, who };
  const expiresInMs = parseDurationMs(b.expires);
  if (scope !== 'exact' || typeof b.expires !== 'string' || !expiresInMs)
    throw badRequest('"expires" goes with scope "exact" and is a duration such as "30m" or "8h"');
  return { decision: b.decision, scope, who, expiresInMs };
}
