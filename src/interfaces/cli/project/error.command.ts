import { Command, CommandRunner } from 'nest-commander';
import { ERROR_CATALOGUE, lookUpErrorCodes } from '../../../domain/errors/error-catalogue';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { closest } from '../../../domain/workflow/unknown-keys.rules';
import { renderCatalogue } from './error-catalogue.renderer';
import { globalFlags } from '../global-flags';

/** `awf error [code]`: the catalogue of every code awf prints, a code, or every code under a prefix. */
@Command({
  name: 'error',
  arguments: '[code]',
  description: 'Explain an error code (or every code under a prefix, or all of them): exit code and what to do',
})
export class ErrorCommand extends CommandRunner {
  async run([query]: string[]): Promise<void> {
    const entries = lookUpErrorCodes(query);
    if (entries.length === 0) {
      const codes = ERROR_CATALOGUE.map((e) => e.code);
      const lower = closest(
        query.toLowerCase(),
        codes.map((c) => c.toLowerCase()),
      );
      const near = codes.find((c) => c.toLowerCase() === lower);
      throw new AwfError(
        ErrorCodes.ERROR_UNKNOWN_CODE,
        `error code not found: ${query}`,
        { code: query },
        `${near ? `Did you mean ${near}? ` : ''}Run \`awf error\` for every code, or \`awf error USER\` for one category.`,
      );
    }
    process.stdout.write(renderCatalogue(entries, globalFlags(this.command).format, query !== undefined));
  }
}
