import { execFile } from 'node:child_process';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { GithubFailure } from './github-failure';

/** GitHub's public REST API; GitHub Actions and GHES users set GITHUB_API_URL instead. */
export const PUBLIC_API = 'https://api.github.com';
const PROGRAM_TIMEOUT_MS = 5_000;
const REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export interface GithubToken {
  value: string;
  /** Where it came from, for messages (never the value): `GH_TOKEN`, `GITHUB_TOKEN`, `gh auth token`. */
  source: string;
}

/**
 * Where the GitHub that the `github.*` operations talk to is, and who they are: the API base
 * (GITHUB_API_URL), the token (GH_TOKEN, then GITHUB_TOKEN as gh orders them, then `gh auth
 * token` for that host when gh is on PATH), and the repository (the `repo` input, GH_REPO, the
 * project's `origin` remote on that GitHub, then GITHUB_REPOSITORY as Actions sets it). The token
 * and the remote are looked up once per process, on first use.
 */
export class GithubAccess {
  private token?: Promise<GithubToken | undefined>;
  private remote?: Promise<string | undefined>;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly cwd: () => string = () => process.cwd(),
  ) {}

  apiBase(): URL {
    const raw = this.env.GITHUB_API_URL?.trim() || PUBLIC_API;
    try {
      const url = new URL(raw.endsWith('/') ? raw : `${raw}/`);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url;
    } catch {
      // falls through to the refusal below
    }
    throw new GithubFailure(
      ErrorCodes.GITHUB_INVALID_INPUT,
      `GITHUB_API_URL "${raw}" is not an http(s) URL (GitHub Enterprise: https://<host>/api/v3)`,
    );
  }

  /** The web host of that API: api.github.com serves github.com; GHES serves its API under its own host. */
  webHost(): string {
    const host = this.apiBase().hostname;
    return host === 'api.github.com' ? 'github.com' : host.replace(/^api\./, '');
  }

  async requireToken(): Promise<GithubToken> {
    this.token ??= this.findToken();
    const token = await this.token;
    if (token) return token;
    throw new GithubFailure(
      ErrorCodes.GITHUB_NO_TOKEN,
      'no GitHub token: set GITHUB_TOKEN or GH_TOKEN, or log in with `gh auth login`',
    );
  }

  /** `owner/name` for this step. */
  async repository(input: unknown): Promise<string> {
    const given = typeof input === 'string' ? input.trim() : '';
    const named = given || this.env.GH_REPO?.trim();
    if (named) {
      if (REPO.test(named)) return named;
      throw new GithubFailure(ErrorCodes.GITHUB_INVALID_INPUT, `repo "${named}" is not owner/name`);
    }
    this.remote ??= program('git', ['remote', 'get-url', 'origin'], this.cwd(), this.env);
    const url = await this.remote;
    const fromRemote = url ? repoOfRemote(url, this.webHost()) : undefined;
    if (fromRemote) return fromRemote;
    const actions = this.env.GITHUB_REPOSITORY?.trim();
    if (actions && REPO.test(actions)) return actions;
    const why = url
      ? `the origin remote (${url.replace(/\/\/[^@/]*@/, '//')}) is not a repository on ${this.webHost()}`
      : `${this.cwd()} has no git remote named origin (or git is not on PATH)`;
    throw new GithubFailure(ErrorCodes.GITHUB_NO_REPO, `cannot tell the repository: ${why}; pass repo: owner/name`);
  }

  private async findToken(): Promise<GithubToken | undefined> {
    for (const name of ['GH_TOKEN', 'GITHUB_TOKEN']) {
      const value = this.env[name]?.trim();
      if (value) return { value, source: name };
    }
    const value = await program('gh', ['auth', 'token', '--hostname', this.webHost()], this.cwd(), this.env);
    return value ? { value, source: '`gh auth token`' } : undefined;
  }
}

/** `owner/name` of a git remote URL (scp-like, ssh:// or http(s)://) when its host is `host`. */
export function repoOfRemote(url: string, host: string): string | undefined {
  const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(url);
  let remoteHost: string;
  let path: string;
  if (scp && !url.includes('://')) [, remoteHost, path] = scp;
  else {
    try {
      const parsed = new URL(url);
      remoteHost = parsed.hostname;
      path = parsed.pathname.replace(/^\//, '');
    } catch {
      return undefined;
    }
  }
  const repo = path.replace(/\.git$/, '').replace(/\/$/, '');
  return remoteHost.toLowerCase() === host.toLowerCase() && REPO.test(repo) ? repo : undefined;
}

/** A program's trimmed stdout, or undefined when it is missing or fails (gh absent, no remote). */
function program(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: PROGRAM_TIMEOUT_MS }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim() || undefined),
    );
  });
}
