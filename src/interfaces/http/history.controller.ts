import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { historyEntryView, historyStatsView, runStatusOf } from '../../application/http-api/api-views';
import type { RunQuery } from '../../domain/ports/run-index.port';
import { envelope, instantOf, limitOf, optionalString } from './api-input';
import { HTTP_API, type HttpApiContext } from './http-api.context';
import { Answers, ApiRoutes, Fails, Limit, RunFilters } from './openapi.decorators';

/** AWF's history routes over the run history: filters `workflow`, `status`, `since`, `until` (RFC 3339), `limit`. */
@ApiRoutes('history')
@Controller('api/history')
export class HistoryController {
  constructor(@Inject(HTTP_API) private readonly api: HttpApiContext) {}

  @Get()
  @ApiOperation({ summary: "Runs of the history, newest first, in AWF's history shape" })
  @RunFilters(true)
  @Limit(50, 1000)
  @Answers(200, 'HistoryEntries', 'The runs.')
  @Fails(400)
  async list(@Query() q: Record<string, unknown>) {
    const runs = await this.api.index.list({ ...filters(q), limit: limitOf(q.limit, 50, 1000) });
    return envelope({ entries: runs.map(historyEntryView) });
  }

  @Get('stats')
  @ApiOperation({ summary: "Counts and mean duration of the runs the filters select (Go's field names)" })
  @RunFilters(true)
  @Answers(200, 'HistoryStats', 'The figures.')
  @Fails(400)
  async stats(@Query() q: Record<string, unknown>) {
    return envelope(historyStatsView(await this.api.index.stats(filters(q))));
  }
}

function filters(q: Record<string, unknown>): Omit<RunQuery, 'after' | 'limit'> {
  const status = optionalString(q.status, 'status');
  return {
    workflow: optionalString(q.workflow, 'workflow'),
    status: status && runStatusOf(status),
    since: instantOf(q.since, 'since'),
    until: instantOf(q.until, 'until'),
  };
}
