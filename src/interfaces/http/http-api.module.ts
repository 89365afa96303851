import { type DynamicModule, Module } from '@nestjs/common';
import { ApprovalsController } from './approvals.controller';
import type { DashboardSessions } from './dashboard/dashboard-sessions';
import { SESSIONS, SessionController } from './dashboard/session.controller';
import { ExecutionEventsController } from './execution-events.controller';
import { ExecutionsController } from './executions.controller';
import { HistoryController } from './history.controller';
import { HTTP_API, type HttpApiContext } from './http-api.context';
import { WorkflowsController } from './workflows.controller';

/** The routes of `awf serve`; their services come from the CLI's container as one context object. */
@Module({})
export class HttpApiModule {
  static register(context: HttpApiContext, sessions: DashboardSessions): DynamicModule {
    return {
      module: HttpApiModule,
      controllers: [
        WorkflowsController,
        ExecutionsController,
        ExecutionEventsController,
        ApprovalsController,
        HistoryController,
        SessionController,
      ],
      providers: [
        { provide: HTTP_API, useValue: context },
        { provide: SESSIONS, useValue: sessions },
      ],
    };
  }
}
