import { AwfError } from '../../../domain/errors/awf-error';
import { checkTerminal } from './tui.command';

const tty = { isTTY: true };
const refusal = (stdin: { isTTY?: boolean }, stdout: { isTTY?: boolean }, env: NodeJS.ProcessEnv) => {
  try {
    checkTerminal(stdin, stdout, env);
    return undefined;
  } catch (err) {
    return err instanceof AwfError ? `${err.code} ${err.message}` : String(err);
  }
};

describe('awf tui needs a terminal', () => {
  it.each([
    [{}, tty, { TERM: 'xterm' }, 'stdin is not a terminal'],
    [tty, {}, { TERM: 'xterm' }, 'stdout is not a terminal'],
    [tty, tty, {}, 'no terminal: TERM is not set'],
    [tty, tty, { TERM: 'dumb' }, 'the terminal does not support interactive mode (TERM=dumb)'],
  ])('refuses %j / %j / %j: %s', (stdin, stdout, env, why) => {
    expect(refusal(stdin, stdout, env)).toBe(`USER.TUI.NO_TERMINAL awf tui needs an interactive terminal: ${why}`);
  });

  it('takes a terminal on both ends with a TERM', () => {
    expect(refusal(tty, tty, { TERM: 'tmux-256color' })).toBeUndefined();
  });
});
