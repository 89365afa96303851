import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import type { GateDecision, StepGate, StepPreview } from '../../../domain/workflow/ports/step-gate.port';
import type { StdinTurns } from './stdin-turns.reader';

const ACTIONS: Record<string, GateDecision | 'inspect' | 'edit'> = {
  c: 'continue',
  s: 'skip',
  a: 'abort',
  r: 'retry',
  i: 'inspect',
  e: 'edit',
};
const SHOWN_OUTPUT = 200;

/**
 * `awf run --interactive` (and `-b a,b`): before each step, or only at the breakpoints, shows
 * the step with its command interpolated and asks AWF's `[c]ontinue [s]kip [a]bort [i]nspect
 * [e]dit [r]etry`. Everything goes to stderr; the answers are lines of stdin (a terminal).
 * The end of stdin, or Ctrl-C, aborts.
 */
export class InteractiveGate implements StepGate {
  constructor(
    private readonly turns: StdinTurns,
    private readonly masker: SecretMasker,
    private readonly breakpoints: ReadonlySet<string> | undefined,
    private readonly out: NodeJS.WritableStream = process.stderr,
  ) {}

  pausesAt(step: string): boolean {
    return !this.breakpoints || this.breakpoints.has(step);
  }

  async before(p: StepPreview): Promise<GateDecision> {
    this.print(`\n[Step ${p.index}/${p.total}] ${p.name}\nType: ${p.type}`);
    if (p.command !== undefined) this.print(`${p.type === 'agent' ? 'Prompt' : 'Command'}: ${p.command}`);
    for (const t of p.transitions) this.print(`  ${t}`);
    for (;;) {
      const menu = `[c]ontinue [s]kip [a]bort [i]nspect [e]dit${p.previous ? ' [r]etry' : ''} > `;
      const answer = await this.turns.ask(menu);
      if (answer === undefined) return 'abort';
      const action = ACTIONS[answer.trim().toLowerCase()];
      if (!action || (action === 'retry' && !p.previous)) {
        this.print(`Error: invalid action "${answer.trim()}"`);
        continue;
      }
      if (action === 'inspect') this.inspect(p);
      else if (action === 'edit') await this.edit(p);
      else {
        if (action === 'abort') this.print('Workflow aborted by user.');
        if (action === 'skip') this.print(`Skipped step '${p.name}'`);
        return action;
      }
    }
  }

  after(step: string, state: StepStateData, next: string | undefined): void {
    if (!this.pausesAt(step)) return;
    if (state.Output.trim()) this.print(`Output: ${state.Output.trim()}`);
    if (state.Stderr.trim()) this.print(`Stderr: ${state.Stderr.trim()}`);
    this.print(`Exit: ${state.ExitCode} | Status: ${state.Status}${next ? `\n→ Next: ${next}` : ''}`);
  }

  private inspect(p: StepPreview): void {
    this.print('Inputs:');
    for (const [k, v] of Object.entries(p.inputs).sort()) this.print(`  ${k}: ${v}`);
    this.print('States:');
    for (const [k, s] of Object.entries(p.states).sort()) {
      const output = s.Output.replace(/\s+/g, ' ').trim();
      this.print(`  ${k}.Output: ${output.length > SHOWN_OUTPUT ? `${output.slice(0, SHOWN_OUTPUT)}…` : output}`);
      this.print(`  ${k}.ExitCode: ${s.ExitCode}`);
    }
  }

  private async edit(p: StepPreview): Promise<void> {
    const name = (await this.turns.ask('Input to edit: '))?.trim();
    if (!name) return;
    if (!(name in p.inputs)) {
      this.print(`Error: no input "${name}" (inputs: ${Object.keys(p.inputs).join(', ') || 'none'})`);
      return;
    }
    const value = await this.turns.ask(`New value for ${name} (current: ${p.inputs[name]}): `);
    if (value !== undefined && value !== '') p.setInput(name, value);
  }

  private print(text: string): void {
    this.out.write(`${this.masker.mask(text)}\n`);
  }
}
