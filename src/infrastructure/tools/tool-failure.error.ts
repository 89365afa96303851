/**
 * A refusal or failure the agent can act on. Tools throw it anywhere below `run`; the
 * provider turns it into an `isError` result carrying exactly this message.
 */
export class ToolFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolFailure';
  }
}
