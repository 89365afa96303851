import { ErrorCodes as C } from '../error-codes';
import { type CatalogueText, type CodesOf, entry } from './catalogue-entry';

/** EXECUTION codes (exit 3): the workflow was fine, something failed while it ran. */
export const EXECUTION_ERRORS: Record<CodesOf<'EXECUTION'>, CatalogueText> = {
  [C.EXECUTION_STEP_FAILED]: entry(
    'A command step exited non-zero and nothing handled it (no `on_failure`, no `continue_on_error`).',
    "Read the step's stderr in the run's output; add `on_failure` to handle it, or `retry` to try again.",
  ),
  [C.EXECUTION_STEP_TIMEOUT]: entry(
    'A step ran longer than its `timeout` and was stopped (its whole process group).',
    'Raise `timeout:` on the step, or make the command finish sooner.',
  ),
  [C.EXECUTION_TERMINAL_FAILURE]: entry(
    'The run reached a terminal state with `status: failure`: the verdict of the workflow itself.',
    '`awf status <id>` shows which step routed there and why.',
  ),
  [C.EXECUTION_AGENT_FAILED]: entry(
    "An agent step failed (the script agent did not get the output it expected, the proxy's connection failed).",
    "Read the message, and the step's tool calls with `awf runs show <id>`.",
  ),
  [C.EXECUTION_AGENT_NO_PROXY]: entry(
    'The script agent calls its tools through the MCP proxy, but the step does not enable it.',
    'Add `mcp_proxy: {enable: true}` to the step.',
  ),
  [C.EXECUTION_AGENT_TIMEOUT]: entry(
    "An agent step ran longer than its `timeout`; the agent's process group was stopped.",
    'Raise `timeout:` on the step, or give the agent a narrower task.',
  ),
  [C.AGENT_BINARY_NOT_FOUND]: entry(
    "The agent's CLI (claude, gemini, codex, opencode) is not installed, or not on PATH.",
    'Install it or put it on PATH: `command -v <cli>` must find it in the shell awf runs from.',
  ),
  [C.AGENT_EXIT_NONZERO]: entry(
    "The agent's CLI exited with a non-zero status.",
    'Read its last stderr lines in the message; run the same CLI by hand to check its login and model.',
  ),
  [C.AGENT_CANCELLED]: entry(
    'The agent was stopped because the run was cancelled (Ctrl-C, SIGTERM).',
    'Nothing to fix; `awf resume <id>` continues the run from this step.',
  ),
  [C.AGENT_REPORTED_ERROR]: entry(
    "The agent's CLI finished but reported an error in its own output (a model, quota or permission problem).",
    "Fix the account, model or permission the agent's message names.",
  ),
  [C.AGENT_API_FAILED]: entry(
    "The openai_compatible provider's HTTP call failed: connection refused, a non-2xx status, or a reply that is not Chat Completions JSON.",
    "Check OPENAI_BASE_URL (or the step's base_url option), the API key and the model name.",
  ),
  [C.EXECUTION_PROXY_DIED]: entry(
    "The step's MCP proxy (`awf mcp-serve`) exited during a tool call.",
    "Look at the proxy's last stderr lines in the message; a crash of awf mcp-serve is a bug worth reporting.",
  ),
  [C.UPSTREAM_START_FAILED]: entry(
    'An upstream MCP server could not be started or reached, or did not answer `initialize`.',
    "Run its command by hand (or open its URL); the server's stderr is in the message.",
  ),
  [C.UPSTREAM_CRASHED]: entry(
    'An upstream MCP server exited, or dropped the connection, while the step was using it.',
    'Read its last stderr lines in the message and run it by hand to see why.',
  ),
  [C.PLUGIN_HANDSHAKE_FAILED]: entry(
    "A plugin process started, but its first stdout line is not a valid go-plugin handshake for AWF's protocol.",
    "Build the plugin with awf/plugin-sdk or AWF's Go SDK; nothing else may print to stdout before the handshake.",
  ),
  [C.PLUGIN_HANDSHAKE_TIMEOUT]: entry(
    'A plugin process did not print its handshake line in time.',
    'Run the plugin binary by hand: it must print its handshake at once and keep running.',
  ),
  [C.PLUGIN_START_FAILED]: entry(
    'A plugin process could not be started, or its gRPC services could not be reached.',
    'Check that its binary runs on this machine; its stderr is in the message.',
  ),
  [C.PLUGIN_CRASHED]: entry(
    'A plugin process exited while awf was using it.',
    'Read its last stderr lines in the message; the next run starts it again.',
  ),
  [C.EXECUTION_POLICY_BYPASSED]: entry(
    "An agent used its own tools around the proxy while the step's policy is strict, so awf stopped it.",
    "Switch the agent's own tools off (`mcp_proxy.intercept_builtins: true` where the provider can), use a provider that can, or set `enforce: audit` to only record such uses (docs/policy.md).",
  ),
  [C.EXECUTION_PARALLEL_FAILED]: entry(
    "A parallel step's strategy was not met (`all_succeed` with a branch failing, `any_succeed` with none succeeding).",
    'Look at the branch results; choose `strategy: best_effort` if a failing branch is acceptable.',
  ),
  [C.EXECUTION_LOOP_FAILED]: entry(
    'A for_each or while loop failed: its items are not a list, its iteration limit was reached or is invalid.',
    "Check the loop's `items`, `condition` and `max_iterations` at the step the message names.",
  ),
  [C.EXECUTION_HOOK_FAILED]: entry(
    'A workflow or step hook command failed.',
    'Fix the hook command, or remove it; run it by hand in a shell to see why it fails.',
  ),
  [C.EXECUTION_CALL_FAILED]: entry(
    'A sub-workflow called by `call_workflow` failed.',
    'Run the child workflow on its own, with the same inputs, to see its error.',
  ),
  [C.EXECUTION_CALL_DEPTH]: entry(
    'Sub-workflow calls nested deeper than 10 levels.',
    'Flatten the calls; the limit guards against runaway recursion.',
    C.EXECUTION_CALL_CIRCULAR,
  ),
  [C.EXECUTION_CALL_CIRCULAR]: entry(
    'A `call_workflow` step calls a workflow that is already running further up the chain (a → b → a). The run stops there, past the on_failure of that step and of every caller, as in AWF; `awf validate` warns about the cycle beforehand.',
    'Break the cycle: a workflow may not call itself, directly or through others. Repeat work with a `while` or `for_each` loop instead.',
    C.WORKFLOW_CIRCULAR_CALL,
  ),
  [C.EXECUTION_OPERATION_FAILED]: entry(
    'An `operation` step (a plugin operation, or `http.request`) returned an error.',
    "Read the operation's message and check its `inputs`.",
  ),
  [C.GITHUB_RATE_LIMITED]: entry(
    "GitHub's rate limit for the token is spent (403 or 429); the message says when it resets.",
    'Wait until the reset time the message gives and run again, or use another token; a workflow can retry later.',
  ),
  [C.GITHUB_REQUEST_FAILED]: entry(
    'A `github.*` operation could not get an answer from GitHub: the network, a timeout, or a 5xx from GitHub.',
    'Check GITHUB_API_URL (GitHub Enterprise: https://<host>/api/v3) and the network, then run again.',
  ),
  [C.QUEUE_BAD_SIGNATURE]: entry(
    'A worker refused a job whose HMAC signature is missing or wrong: it was not queued by an awf with the same AWF_QUEUE_SECRET, or it was changed in the queue.',
    'Give `awf run --queue` and the workers the same AWF_QUEUE_SECRET; if it is the same, someone else writes to the queue: check who can reach the queue (Redis or PostgreSQL).',
  ),
  [C.QUEUE_BAD_DIGEST]: entry(
    "A worker refused a job whose files do not match their SHA-256 digests, or whose paths leave the run's directory.",
    'The job was signed with the secret yet does not hold together: enqueue the run again; if it happens again, check who holds AWF_QUEUE_SECRET.',
  ),
  [C.QUEUE_CANCELLED]: entry(
    'The queued run was cancelled (`awf runs cancel`): removed before it started, or stopped by its worker.',
    'Enqueue it again with `awf run --queue` if it should run.',
  ),
  [C.QUEUE_JOB_FAILED]: entry(
    'The queue gave up on a run without an ending from a worker: its workers died more often than the queue allows (5 times), or the job was removed.',
    "Look at the workers' logs for why they died (memory, a step that kills its worker); enqueue the run again.",
  ),
  [C.SERVE_STOPPING]: entry(
    '`awf serve` is shutting down (it received SIGTERM or SIGINT): it starts no new run (HTTP 503).',
    'Send the request again once the server is back; runs it cancelled on the way down can be resumed.',
  ),
};

/** SYSTEM codes (exit 4): the machine or awf itself, not the workflow. */
export const SYSTEM_ERRORS: Record<
  Exclude<CodesOf<'SYSTEM'>, CodesOf<'SYSTEM.RELEASE'> | CodesOf<'SYSTEM.UPGRADE'>>,
  CatalogueText
> = {
  [C.QUEUE_UNAVAILABLE]: entry(
    "The queue (Redis, or PostgreSQL for BullMQ's PostgreSQL backend) named in the message cannot be reached.",
    'Start it or fix the URL (--queue or AWF_QUEUE_URL); `redis-cli -u URL ping` must answer PONG, or `psql URL -c "select 1"` answer.',
  ),
  [C.SYSTEM_INTERNAL]: entry(
    'An error awf did not expect: a bug in awf.',
    'Rerun with AWF_DEBUG=1 to see the stack trace, and report it with that output.',
  ),
  [C.SYSTEM_IO]: entry(
    'A file awf must read or write failed (permissions, a full disk, a directory where a file should be).',
    'Check the path in the message, its permissions and the free space.',
  ),
  [C.HISTORY_UNAVAILABLE]: entry(
    "The run history cannot be opened: better-sqlite3's native build does not load on this machine.",
    'Rebuild it with `npm rebuild better-sqlite3` where awf is installed; commands that need no history still work.',
  ),
  [C.HISTORY_FAILED]: entry(
    'The run history database cannot be opened or written (not a database, corrupt, locked for too long).',
    'Move history.db out of the storage dir to start a new history; check free space and permissions.',
  ),
  [C.HISTORY_UNREACHABLE]: entry(
    'The shared run history (a PostgreSQL database, --history or AWF_HISTORY_URL) does not answer.',
    'Check that PostgreSQL runs and that the URL, user and password are right; `pg_isready -d URL` tells.',
  ),
  [C.HISTORY_TOO_NEW]: entry(
    'The run history was migrated by a newer awf: its schema has versions this awf does not know.',
    'Upgrade awf to the version that the other machines use; this one must not write to that history.',
  ),
  [C.BASH_SANDBOX_UNAVAILABLE]: entry(
    'The step requires Bash to run sandboxed (`bash_sandbox`), and the sandbox cannot start on this machine.',
    'Install bubblewrap, or set AWF_BWRAP to a bwrap binary; where bwrap cannot run (user namespaces off), use a container or turn the sandbox off.',
  ),
  [C.PLUGIN_BINARY_MISSING]: entry(
    "A plugin's manifest names an executable that does not exist or cannot be run.",
    'Build the plugin, or fix the binary path in its plugin.yaml; the file must be executable.',
  ),
};
