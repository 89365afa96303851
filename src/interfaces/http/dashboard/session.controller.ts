import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { envelope } from '../api-input';
import { Answers, ApiRoutes, ChangesState } from '../openapi.decorators';
import { CALLER, type KnownCaller } from '../request-security';
import { DashboardSessions } from './dashboard-sessions';

export const SESSIONS = Symbol.for('awf.DashboardSessions');

/**
 * The dashboard's sign-in: the page sends the token once, in the Authorization header, and gets
 * a session cookie in exchange (HttpOnly: the page's script never sees it). Behind the same
 * gate as every route: only a valid token or session gets here.
 */
@ApiRoutes('session')
@Controller('api/session')
export class SessionController {
  constructor(@Inject(SESSIONS) private readonly sessions: DashboardSessions) {}

  /** Who this request is: a token's name, or `local` on a server without tokens. */
  @Get()
  @ApiOperation({ summary: 'Who the caller is: the name of its token (or session), or `local`' })
  @Answers(200, 'Session', 'The caller.')
  who(@Req() req: KnownCaller) {
    return envelope({ who: req[CALLER] ?? 'local' });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "Trades the request's token for the dashboard's session cookie (HttpOnly, SameSite=Strict, 12 h)",
  })
  @Answers(200, 'Session', 'Signed in: the cookie is set.')
  @ChangesState(false)
  open(@Req() req: KnownCaller, @Res({ passthrough: true }) res: ServerResponse) {
    const who = req[CALLER] ?? 'local';
    res.setHeader('set-cookie', DashboardSessions.cookie(this.sessions.open(who)));
    return envelope({ who });
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: "Ends the request's session: the cookie is cleared" })
  @ApiResponse({ status: 204, description: 'Signed out.' })
  @ChangesState(false)
  close(@Req() req: KnownCaller, @Res({ passthrough: true }) res: ServerResponse): void {
    this.sessions.close(req.headers.cookie);
    res.setHeader('set-cookie', DashboardSessions.cookie(undefined));
  }
}
