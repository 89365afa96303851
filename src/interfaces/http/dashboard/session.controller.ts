import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { envelope } from '../api-input';
import { CALLER, type KnownCaller } from '../request-security';
import { DashboardSessions } from './dashboard-sessions';

export const SESSIONS = Symbol.for('awf.DashboardSessions');

/**
 * The dashboard's sign-in: the page sends the token once, in the Authorization header, and gets
 * a session cookie in exchange (HttpOnly: the page's script never sees it). Behind the same
 * gate as every route: only a valid token or session gets here.
 */
@Controller('api/session')
export class SessionController {
  constructor(@Inject(SESSIONS) private readonly sessions: DashboardSessions) {}

  /** Who this request is: a token's name, or `local` on a server without tokens. */
  @Get()
  who(@Req() req: KnownCaller) {
    return envelope({ who: req[CALLER] ?? 'local' });
  }

  @Post()
  @HttpCode(200)
  open(@Req() req: KnownCaller, @Res({ passthrough: true }) res: ServerResponse) {
    const who = req[CALLER] ?? 'local';
    res.setHeader('set-cookie', DashboardSessions.cookie(this.sessions.open(who)));
    return envelope({ who });
  }

  @Delete()
  @HttpCode(204)
  close(@Req() req: KnownCaller, @Res({ passthrough: true }) res: ServerResponse): void {
    this.sessions.close(req.headers.cookie);
    res.setHeader('set-cookie', DashboardSessions.cookie(undefined));
  }
}
