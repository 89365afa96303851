/** Installs the pinned agent CLIs once (cached outside the repo) and hands their bin dir to the suites. */
import { installAgentClis } from './agent-clis.installer';

export default function setup(): void {
  process.env.AWF_AGENT_CLI_BIN = installAgentClis((line) => process.stderr.write(`\n[test:agents] ${line}\n`));
}
