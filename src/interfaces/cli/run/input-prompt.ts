import type { InputDef } from '../../../domain/workflow/workflow.model';
import type { StdinTurns } from './stdin-turns.reader';

/**
 * Asks for one required input at the terminal (AWF prompts for the missing ones when stdin is
 * a TTY): its name, type, description and allowed values; a secret input is typed unechoed.
 * An empty answer leaves it missing, so the run fails with the usual input error.
 */
export function askForInput(turns: StdinTurns, def: InputDef): Promise<string | undefined> {
  const about = [def.type, def.validation?.enum ? `one of ${def.validation.enum.join(', ')}` : undefined]
    .filter(Boolean)
    .join(', ');
  const label = `${def.name}${about ? ` (${about})` : ''}${def.description ? ` - ${def.description}` : ''}`;
  return turns.ask(`${label}: `, { hidden: def.secret });
}
