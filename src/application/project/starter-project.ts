/**
 * What `awf init` writes: the project config, one workflow that runs offline (a command step,
 * then the `script` agent reading the example prompt through the MCP proxy), and that prompt.
 * AWF also writes `.awf.yaml` and `.awf/scripts/`; awf reads neither, so it does not write them.
 */
export interface StarterFile {
  path: string;
  content: string;
  mode: number;
}

const CONFIG = `# awf project configuration: read by every awf command run in this directory.
# \`awf config show\` prints what awf reads, and where each value comes from.
#
# Default workflow inputs (\`awf run -i name=value\` wins). Do not store secrets here:
# pass them with -i or through the environment.
inputs:
  # who: world

# Other keys: extensions (your Nest modules), telemetry, mcp_servers, policy (see the docs).
`;

const WORKFLOW = `# Created by awf init. Run it from the project directory: awf run example
name: example
version: "1.0.0"
description: A command step, then an agent that reads a prompt through the MCP proxy, offline
inputs:
  - name: who
    type: string
    default: world
states:
  initial: greet
  greet:
    type: step
    command: echo "Hello, {{.inputs.who}}, from awf!"
    on_success: read_prompt
  read_prompt:
    # The script agent makes real tool calls through \`awf mcp-serve\` without a model:
    # swap in provider claude, gemini, codex or opencode and a real prompt to use an AI.
    type: agent
    provider: script
    prompt: Read the example prompt.
    timeout: 2m
    mcp_proxy:
      enable: true
    options:
      calls:
        - tool: Read
          args: {file_path: .awf/prompts/example.md}
          expect: Summarize
    on_success: done
  done:
    type: terminal
    status: success
    message: "{{trimSpace .states.greet.Output}} The agent read .awf/prompts/example.md through the proxy."
`;

const PROMPT = `Summarize what this project does in three sentences, then list its main entry points.
`;

export const STARTER_FILES: readonly StarterFile[] = [
  { path: '.awf/config.yaml', content: CONFIG, mode: 0o644 },
  { path: '.awf/workflows/example.yaml', content: WORKFLOW, mode: 0o644 },
  { path: '.awf/prompts/example.md', content: PROMPT, mode: 0o644 },
];

const GLOBAL_PROMPT = `Review the change for bugs, missing tests and unclear names; list each finding with its file and line.

(Created by awf init --global: prompts here serve every project, as \`awf run wf -i prompt=@prompts/example.md\`
or \`awf list prompts\`. A project's own .awf/prompts/ wins over a file of the same name here.)
`;

const GLOBAL_SCRIPT = `#!/bin/sh
# Created by awf init --global: scripts here serve every project's workflows, as
#   states:
#     hello:
#       type: step
#       script_file: "{{.awf.scripts_dir}}/example.sh"
# (a project's own .awf/scripts/example.sh wins over this one).
echo "Hello from an awf script"
`;

/** What \`awf init --global\` writes under AWF's config dir (\`$XDG_CONFIG_HOME/awf\`), as AWF's does. */
export const GLOBAL_STARTER_FILES: readonly StarterFile[] = [
  { path: 'prompts/example.md', content: GLOBAL_PROMPT, mode: 0o644 },
  { path: 'scripts/example.sh', content: GLOBAL_SCRIPT, mode: 0o755 },
];
