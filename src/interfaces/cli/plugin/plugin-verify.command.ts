import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { PluginReleases } from '../../../infrastructure/plugins/plugin-releases.service';
import { globalFlags, jsonLine } from '../global-flags';

@SubCommand({
  name: 'verify',
  arguments: '[names...]',
  description: "Check installed plugins' files against the SHA-256 recorded at install (--update records anew)",
})
export class PluginVerifyCommand extends CommandRunner {
  constructor(private readonly releases: PluginReleases) {
    super();
  }

  async run(names: string[], options: { update?: boolean }): Promise<void> {
    const lines = this.releases.verify(names, options.update === true);
    if (globalFlags(this.command).format === 'json') process.stdout.write(jsonLine({ plugins: lines }));
    else {
      for (const l of lines) {
        const detail = l.status === 'FAIL' ? `expected=${l.expected} actual=${l.sha256}` : (l.sha256 ?? '');
        process.stdout.write(`${l.name.padEnd(30)}  ${l.status}  ${detail}`.trimEnd() + '\n');
      }
    }
    const failed = lines.filter((l) => l.status === 'FAIL' || l.status === 'MISSING');
    if (failed.length === 0) return;
    throw new AwfError(
      ErrorCodes.RELEASE_CHECKSUM_MISMATCH,
      `${failed.length} of ${lines.length} plugin(s) failed verification: ` +
        failed.map((l) => `${l.name} ${l.status}`).join(', '),
      { failed: failed.map((l) => l.name) },
      'FAIL: its files changed since install; reinstall it (or `awf plugin verify --update` if you changed them). ' +
        'MISSING: nothing was recorded at install; `awf plugin verify --update` records it now.',
    );
  }

  @Option({ flags: '--update', description: 'record the SHA-256 of the files as they are now' })
  parseUpdate(): boolean {
    return true;
  }
}
