import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ToolPinStore } from '../../core/tool-pin.store';

/** `<data dir>/mcp-auth`, beside the tool pins of the same data dir (`pinsDir`, else the environment's). */
export function mcpAuthDir(pinsDir?: string): string {
  return join(dirname(new ToolPinStore(pinsDir).dir), 'mcp-auth');
}

/** What awf keeps of one server's sign-in: the client it registered (or was given) and its tokens. */
export interface OAuthCredentials {
  /** The server's URL when these were saved: a server moved to another URL signs in again. */
  url: string;
  /** The authorization server (its `issuer`) the client was registered with. */
  issuer?: string;
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
}

/**
 * One JSON file per server, `<data dir>/mcp-auth/<server>.json`, mode 0600 in a 0700 directory,
 * written through a temp file and a rename so a reader never sees half a file. Tokens never go
 * anywhere else: not the log, not the proxy config, not the history.
 */
export class OAuthCredentialsStore {
  constructor(
    readonly dir: string,
    private readonly server: string,
    private readonly url: string,
  ) {}

  get file(): string {
    return join(this.dir, `${this.server}.json`);
  }

  read(): OAuthCredentials {
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as OAuthCredentials;
      if (saved.url === this.url) return saved;
    } catch {
      // none yet, or unreadable: sign in again
    }
    return { url: this.url };
  }

  update(change: Partial<Omit<OAuthCredentials, 'url'>>): void {
    const next = { ...this.read(), ...change, url: this.url };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.file);
  }

  exists(): boolean {
    return existsSync(this.file);
  }

  /** Forgets what `what` names ('all': the file). */
  forget(what: 'all' | 'client' | 'tokens'): void {
    if (what === 'all') rmSync(this.file, { force: true });
    else this.update({ [what]: undefined });
  }
}
