import type { ConfigReport, ConfigSetting, EffectiveConfig } from '../../domain/ports/effective-config.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { isSecretInputName } from '../../domain/workflow/secret-names';
import { SECRET_NAME_PATTERN } from '../secret-masker.service';

/** Header and variable names whose values are secrets wherever they appear in a setting. */
const SECRET_KEY = new RegExp(`${SECRET_NAME_PATTERN.source}|AUTH|COOKIE`, 'i');
export const MASK = '***';

/**
 * `awf config show`: the effective settings with every secret masked, by name (an input named
 * like AWF's secret inputs, a header or variable named like a secret) and by value (the value of
 * any secret-named environment variable, wherever it appears).
 */
export class ConfigShowService {
  constructor(
    private readonly config: EffectiveConfig,
    private readonly masker: SecretMasker,
  ) {}

  show(flags: Parameters<EffectiveConfig['read']>[0]): ConfigReport {
    const report = this.config.read(flags);
    const settings = report.settings.map((s): ConfigSetting => ({ ...s, value: this.maskSetting(s) }));
    const inputs = Object.fromEntries(
      Object.entries(report.inputs).map(([k, v]) => [k, isSecretInputName(k) ? MASK : this.deep(v)]),
    );
    return { ...report, settings, inputs };
  }

  private maskSetting(setting: ConfigSetting): unknown {
    if (setting.key.startsWith('inputs.') && isSecretInputName(setting.key.slice('inputs.'.length))) return MASK;
    return this.deep(setting.value);
  }

  private deep(value: unknown): unknown {
    if (typeof value === 'string') return this.masker.mask(value);
    if (Array.isArray(value)) return value.map((v) => this.deep(v));
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && !isReference(v) ? MASK : this.deep(v)]),
      );
    return value;
  }
}

/** `${VAR}` names a variable, it holds no secret: shown, so the user sees where the value will come from. */
function isReference(value: unknown): boolean {
  return value === '' || (typeof value === 'string' && /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(value));
}
