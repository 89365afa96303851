import { Inject } from '@nestjs/common';
import { CommandRunner, SubCommand } from 'nest-commander';
import { PROMPT_LIBRARY, type PromptFile, type PromptLibrary } from '../../../domain/ports/prompt-library.port';
import { globalFlags, jsonLine } from '../global-flags';
import { renderTable } from '../table.renderer';

/** `awf list prompts` (alias `p`): the prompt files `-i name=@prompts/<file>` can name, local before global. */
@SubCommand({
  name: 'prompts',
  aliases: ['p'],
  description: 'List the prompt files in $AWF_PROMPTS_PATH, ./.awf/prompts and ~/.config/awf/prompts',
})
export class ListPromptsCommand extends CommandRunner {
  constructor(@Inject(PROMPT_LIBRARY) private readonly prompts: PromptLibrary) {
    super();
  }

  async run(): Promise<void> {
    const format = globalFlags(this.command).format;
    const prompts = this.prompts.list();
    if (format === 'json') return void process.stdout.write(jsonLine({ prompts: prompts.map(toJson) }));
    if (format === 'quiet') return void process.stdout.write(prompts.map((p) => `${p.name}\n`).join(''));
    if (prompts.length === 0) {
      const dirs = this.prompts.searchPaths().map((d) => `  - ${d.dir} (${d.source})`);
      return void process.stdout.write(
        ['No prompts found', 'Search paths:', ...dirs, "Run 'awf init' to create the prompts directory", ''].join('\n'),
      );
    }
    const rows = [
      ['NAME', 'SOURCE', 'SIZE', 'MODIFIED'],
      ...prompts.map((p) => [p.name, p.source, `${p.size} B`, p.modTime]),
    ];
    process.stdout.write(renderTable(rows, format === 'table'));
  }
}

function toJson(p: PromptFile): Record<string, unknown> {
  return { name: p.name, source: p.source, path: p.path, size: p.size, mod_time: p.modTime };
}
