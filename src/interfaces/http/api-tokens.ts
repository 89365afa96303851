import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** A client's token, kept only as its SHA-256: compared in constant time, never logged. */
export interface ApiToken {
  name: string;
  digest: Buffer;
}

const MIN_LENGTH = 32;
const NAME = /^[A-Za-z0-9._@-]{1,64}$/;
const TOKEN = /^[\x21-\x7e]+$/;
const HINT =
  'Write one `name token` line per client in a file only you may read (chmod 600); `openssl rand -hex 32` makes a token.';

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * The tokens the server accepts: AWF_API_TOKEN (named `env`) and each `name token` line of
 * --token-file (`#` comments and blank lines skipped). The file must be readable by its owner
 * only, as ssh asks of a key. Anything else refuses to start the server (USER.SERVE.INVALID_TOKEN).
 */
export function loadApiTokens(envToken: string | undefined, file: string | undefined): ApiToken[] {
  const tokens: ApiToken[] = [];
  if (envToken !== undefined && envToken !== '')
    tokens.push({ name: 'env', digest: digest(checked(envToken, 'AWF_API_TOKEN')) });
  if (file) tokens.push(...fileTokens(file));
  const names = tokens.map((t) => t.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw invalid(`the token name "${twice}" is given twice`, { name: twice });
  return tokens;
}

/** The name of the token in `Authorization: Bearer <token>`; undefined when it is none of them. */
export function tokenOwner(tokens: readonly ApiToken[], authorization: string | undefined): string | undefined {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  if (!m) return undefined;
  const presented = digest(m[1]);
  let owner: string | undefined;
  // Every token is compared, matched or not, so the time taken says nothing about which matched.
  for (const t of tokens) if (timingSafeEqual(presented, t.digest) && owner === undefined) owner = t.name;
  return owner;
}

function fileTokens(file: string): ApiToken[] {
  let text: string;
  try {
    if ((statSync(file).mode & 0o077) !== 0)
      throw invalid(
        `--token-file ${file} may be read by others than its owner`,
        { file },
        `Run \`chmod 600 ${file}\`.`,
      );
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof AwfError) throw err;
    throw invalid(`cannot read --token-file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { file });
  }
  const tokens: ApiToken[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    if (fields.length !== 2 || !NAME.test(fields[0]))
      throw invalid(`--token-file ${file}, line ${i + 1}: not \`name token\``, { file, line: i + 1 });
    tokens.push({ name: fields[0], digest: digest(checked(fields[1], `--token-file ${file}, line ${i + 1}`)) });
  });
  if (tokens.length === 0) throw invalid(`--token-file ${file} holds no token`, { file });
  return tokens;
}

function checked(token: string, where: string): string {
  if (token.length < MIN_LENGTH || !TOKEN.test(token))
    throw invalid(`${where}: a token must be at least ${MIN_LENGTH} printable characters, without spaces`, {});
  return token;
}

function invalid(message: string, details: Record<string, unknown>, hint = HINT): AwfError {
  return new AwfError(ErrorCodes.SERVE_INVALID_TOKEN, message, details, hint);
}
