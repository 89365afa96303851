import type { SecretMasker } from '../domain/ports/secret-masker.port';

/** Names that mark an environment variable as secret (case-insensitive substring). */
export const SECRET_NAME_PATTERN = /SECRET|TOKEN|PASSWORD|KEY/i;

/** Shorter values would mask ordinary words and digits all over the output. */
const MIN_SECRET_LENGTH = 4;

/**
 * Value-based masking: catches a secret wherever it appears (a command echoing it, an error
 * quoting it), which key-based redaction cannot. Longest values are replaced first so a
 * secret containing another secret is masked whole.
 */
export class ValueSecretMasker implements SecretMasker {
  private values: string[] = [];
  private pattern?: RegExp;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.add(
      ...Object.entries(env)
        .filter(([name, value]) => SECRET_NAME_PATTERN.test(name) && value)
        .map(([, value]) => value as string),
    );
  }

  add(...values: string[]): void {
    const fresh = values.filter((v) => v.length >= MIN_SECRET_LENGTH && !this.values.includes(v));
    if (fresh.length === 0) return;
    this.values = [...this.values, ...fresh].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(this.values.map(escapeRegExp).join('|'), 'g');
  }

  mask(text: string): string {
    return this.pattern ? text.replace(this.pattern, '***') : text;
  }
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
