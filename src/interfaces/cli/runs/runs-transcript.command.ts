import { Inject } from '@nestjs/common';
import { CommandRunner, SubCommand } from 'nest-commander';
import { TRANSCRIPT_STORE, type TranscriptStore } from '../../../domain/ports/transcript-store.port';
import { globalFlags, jsonLine } from '../global-flags';
import { renderTranscript } from './transcript.renderer';

/** `awf runs transcript <id>`: a run's transcript (`<storage>/transcripts/<id>.jsonl`), readable. */
@SubCommand({
  name: 'transcript',
  arguments: '<run-id>',
  description: "Print a run's transcript: steps, prompts, replies and tool calls (a unique id prefix is enough)",
})
export class RunsTranscriptCommand extends CommandRunner {
  constructor(@Inject(TRANSCRIPT_STORE) private readonly transcripts: TranscriptStore) {
    super();
  }

  async run([given]: string[]): Promise<void> {
    const runId = this.transcripts.resolve(given);
    const file = this.transcripts.pathOf(runId);
    const events = this.transcripts.read(runId);
    process.stdout.write(
      globalFlags(this.command).format === 'json'
        ? jsonLine({ run_id: runId, file, events })
        : renderTranscript(runId, file, events),
    );
  }
}
