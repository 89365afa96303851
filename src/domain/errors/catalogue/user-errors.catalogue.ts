import { ErrorCodes as C } from '../error-codes';
import { type CatalogueText, type CodesOf, entry } from './catalogue-entry';

/** USER codes (exit 1): something the user wrote or typed; the fix is theirs. */
type GeneralUserCode = Exclude<
  CodesOf<'USER'>,
  | CodesOf<'USER.MCP_PROXY'>
  | CodesOf<'USER.POLICY'>
  | CodesOf<'USER.ACP'>
  | CodesOf<'USER.RELEASE'>
  | CodesOf<'USER.PACK'>
  | CodesOf<'USER.UPGRADE'>
>;

export const USER_ERRORS: Record<GeneralUserCode, CatalogueText> = {
  [C.CLI_INVALID_ARGS]: entry(
    'The command line is wrong: an unknown command or option, a missing argument, or a value awf does not accept.',
    'Run `awf <command> --help` for its arguments and options; the message names the part awf refused.',
  ),
  [C.INPUT_MISSING_FILE]: entry(
    'A file or directory named on the command line cannot be read (for example `awf validate --dir` of a directory that does not exist).',
    'Check the path (a relative one is taken from the current directory) and that you may read it.',
  ),
  [C.INPUT_INVALID]: entry(
    "A workflow input is missing, or its value breaks the input's type or validation rules (pattern, enum, min/max, file_exists, file_extension).",
    "Pass it with `-i name=value`; the workflow's `inputs:` say what each input accepts.",
    C.WORKFLOW_INVALID_INPUT_ARG,
  ),
  [C.WORKFLOW_INVALID_INPUT_ARG]: entry(
    'An `-i/--input` flag is not `name=value` (no `=`, or an empty name).',
    'Write it as `-i name=value`; the value may itself contain `=`.',
    C.INPUT_INVALID,
  ),
  [C.CONFIG_INVALID]: entry(
    'The project config `.awf/config.yaml`, or a telemetry setting (an `OTEL_*` variable, an `--otel-*` flag), is not valid: bad YAML, an unknown key, a wrong type.',
    'Fix the key the message names; `awf config show` prints what awf reads and where each value comes from.',
  ),
  [C.EXTENSION_LOAD_FAILED]: entry(
    'A module listed under `extensions:` in `.awf/config.yaml` cannot be loaded, or does not export a Nest module.',
    'Check the path (relative to the project) or the package name, compile the module to JavaScript, and export its module class (docs/extending.md).',
  ),
  [C.INPUT_FILE_TOO_LARGE]: entry(
    'A file a workflow reads as text (`script_file`, `prompt_file`, an `@prompts/` input value) is over 1 MB.',
    'Use a smaller file, or have a step read the file itself at run time.',
    C.INPUT_MISSING_FILE,
  ),
  [C.FILE_READ_ONLY]: entry(
    'Write or Edit was asked to change a read-only file (no write permission bit), or a file in a directory it may not write to. Nothing was changed: awf refuses as the shell and editors do, instead of replacing the file.',
    'Make the file writable (`chmod u+w <file>`) if it is meant to change, or leave it alone.',
  ),
  [C.OPERATION_UNAVAILABLE]: entry(
    'A built-in operation cannot run on this machine or in this awf.',
    'Use a plugin that provides the operation, or run the workflow where the operation is available.',
  ),
  [C.INPUT_MISSING_ROLE]: entry(
    "An agent step's `role` names no AGENTS.md: no `<name>/AGENTS.md` in the role directories ($AWF_ROLES_PATH, else the workflow's `.awf/roles`, ./.awf/roles, ./.agents/roles, <config>/roles, ~/.agents/roles), or a role path without one.",
    "Create `.awf/roles/<name>/AGENTS.md`, or fix the name or path (a path is taken from the workflow's directory).",
    C.INPUT_MISSING_SKILL,
  ),
  [C.INPUT_MISSING_SKILL]: entry(
    "An agent step's `skills` names a skill with no SKILL.md: no `<name>/SKILL.md` in the skill directories ($AWF_SKILLS_PATH, else the workflow's `.awf/skills`, ./.awf/skills, ./.agents/skills, ./.claude/skills, <config>/skills, ~/.agents/skills, ~/.claude/skills), or a `{path}` without one.",
    "Create `.awf/skills/<name>/SKILL.md`, or fix the name or path (a path is taken from the workflow's directory).",
    C.INPUT_MISSING_ROLE,
  ),
  [C.WORKFLOW_NOT_FOUND]: entry(
    'No workflow has that name or path.',
    'Check the name with `awf list`: names are looked up in $AWF_WORKFLOWS_PATH, ./.awf/workflows and ~/.config/awf/workflows; a path is taken from the current directory.',
  ),
  [C.WORKFLOW_DOES_NOT_LOAD]: entry(
    "`awf validate`'s verdict on a workflow file that does not load: its YAML, a required field, a state it names or a `when` is wrong (each problem is listed with its own code). AWF's validate exits 1 for these too; `awf run` refuses the same file with the first problem's own code (exit 2).",
    'Fix the problems listed above it, first to last; later ones often follow from the first.',
    C.WORKFLOW_YAML_SYNTAX,
    C.WORKFLOW_MISSING_STATE,
  ),
  [C.RUN_NOT_FOUND]: entry(
    'No run in the history has that id or id prefix.',
    'List the runs with `awf history`; each storage dir (--storage, AWF_STORAGE) has its own history.',
  ),
  [C.RUN_AMBIGUOUS_ID]: entry(
    'The id prefix matches more than one run.',
    'Give more characters of the id; `awf history -f quiet` prints whole ids.',
  ),
  [C.RUN_NOT_RESUMABLE]: entry(
    'The run cannot be resumed: it succeeded, or it is still running.',
    'Resume a failed, cancelled or interrupted run (`awf resume-list`), or start a new one with `awf run`.',
  ),
  [C.AGENT_INVALID_OPTIONS]: entry(
    "A step's `options:` has a value its provider does not accept (an unknown key, a wrong type).",
    "Fix the option the message names; docs/agents.md lists each provider's options.",
  ),
  [C.WORKFLOW_UNKNOWN_PROVIDER]: entry(
    'An agent step names a provider awf has no implementation of.',
    'Use claude, gemini, codex, opencode, openai_compatible or script, or load a module that provides it (`extensions:`).',
  ),
  [C.AGENT_CANNOT_RESUME]: entry(
    'A conversation step asks to continue an earlier session with a provider that cannot resume one, so each turn runs without the earlier ones (a warning).',
    'Use a provider that can resume (claude, codex, gemini, opencode), or accept that its turns are independent.',
  ),
  [C.PLUGIN_NOT_FOUND]: entry(
    "No installed plugin has that name, or an `operation` step names an operation no plugin provides when it runs (the run stops there, as AWF's does).",
    '`awf plugin list` shows the plugins found in AWF_PLUGINS_PATH, else ./.awf/plugins and $XDG_DATA_HOME/awf/plugins.',
  ),
  [C.PLUGIN_INVALID_NAME]: entry(
    'The name given to `awf plugin init` is not a valid plugin name.',
    'Use lowercase letters and digits, words joined by "-", starting with a letter (e.g. "weather").',
  ),
  [C.PLUGIN_INVALID_PACKAGE]: entry(
    '`awf plugin install` was given something that is not a plugin: neither a folder holding plugin.yaml nor a tarball of one.',
    'Give a plugin folder (it holds plugin.yaml) or a tarball of one (npm pack of the plugin project).',
  ),
  [C.PLUGIN_TARGET_EXISTS]: entry(
    '`awf plugin init` would write into a directory that exists and is not empty.',
    'Choose another --output, or pass --force to overwrite the scaffold files.',
  ),
  [C.INIT_ALREADY_INITIALIZED]: entry(
    '`awf init` found starter files it would overwrite; it wrote nothing.',
    'Pass --force to write the starter files again (other files are left alone), or edit the existing ones.',
  ),
  [C.ERROR_UNKNOWN_CODE]: entry(
    '`awf error` was given a code that is not in the catalogue, and no code starts with it.',
    'Run `awf error` for the whole catalogue; codes look like USER.INPUT.VALIDATION_FAILED.',
  ),
  [C.ENV_MISSING]: entry(
    "An environment variable the workflow's `env:` list names is not set (or is empty). A warning: the run goes on, as AWF's does (AWF reads the list and checks nothing).",
    'Export it before `awf run` if a step needs it (the warning lists every missing one), or remove it from `env:`.',
  ),
  [C.SERVE_UNSAFE_BIND]: entry(
    '`awf serve --host` names an address other than loopback, and no API token is set: anyone who can reach it could run workflows.',
    'Set AWF_API_TOKEN or pass --token-file (docs/serve.md), or keep the default --host 127.0.0.1 behind a reverse proxy.',
    C.SERVE_INVALID_TOKEN,
  ),
  [C.SERVE_INVALID_TOKEN]: entry(
    'The API token (AWF_API_TOKEN, or a line of --token-file) cannot be used: the file cannot be read, others may read it, a line is not `name token`, or a token is shorter than 32 characters.',
    'Write one `name token` line per client in a file only you may read (chmod 600); make tokens with `openssl rand -hex 32`.',
  ),
  [C.SERVE_CANNOT_LISTEN]: entry(
    '`awf serve` cannot listen on the address and port it was given (the port is taken, or needs privileges).',
    'Pick another --port (0 lets the system choose one), or stop whatever holds the port.',
  ),
  [C.SERVE_UNAUTHORIZED]: entry(
    'An API request had no `Authorization: Bearer <token>` header, or its token is not one the server knows (HTTP 401).',
    "Send the header with a token from the server's AWF_API_TOKEN or --token-file.",
  ),
  [C.SERVE_WRONG_HOST]: entry(
    "A request's Host header is not the server's address, `localhost`, or a name given with --allowed-host (HTTP 421): what DNS rebinding looks like.",
    'Use the address `awf serve` printed; behind a reverse proxy, pass the public name with --allowed-host.',
  ),
  [C.SERVE_CROSS_SITE]: entry(
    'A request that changes state came from another site (its Origin or Sec-Fetch-Site says so), which --cors-origin does not allow (HTTP 403).',
    'Call the API from a program, or name the web origin that may call it with --cors-origin.',
  ),
  [C.SERVE_BAD_REQUEST]: entry(
    'An API request is malformed: its body is not JSON, not `application/json`, over 1 MiB, or a field has the wrong type (HTTP 400, 413, 415).',
    'Send `Content-Type: application/json` with the fields docs/serve.md lists for the route.',
  ),
  [C.SERVE_NOT_FOUND]: entry(
    'No API route has this method and path, or the execution id is unknown (HTTP 404).',
    'docs/serve.md lists the routes; GET /api/executions lists the runs the history holds.',
    C.RUN_NOT_FOUND,
  ),
  [C.SERVE_CONFLICT]: entry(
    'The request does not fit the state of the run (HTTP 409): no input is pending, or the run belongs to another awf process.',
    'Read the run with GET /api/executions/{id}; stop a run started by `awf run` in its own terminal.',
  ),
  [C.GITHUB_NO_TOKEN]: entry(
    'A `github.*` operation found no GitHub token: GH_TOKEN and GITHUB_TOKEN are unset, and `gh auth token` gave none.',
    'Export GITHUB_TOKEN (or GH_TOKEN) with a token that may read/write the repository, or run `gh auth login`.',
    C.GITHUB_AUTH_FAILED,
  ),
  [C.GITHUB_NO_REPO]: entry(
    "A `github.*` operation could not tell which repository to use: no `repo` input, no GH_REPO, and the project's `origin` remote is missing or not on that GitHub.",
    "Pass `repo: owner/name` in the step's inputs, or set GH_REPO=owner/name.",
  ),
  [C.GITHUB_INVALID_INPUT]: entry(
    'A `github.*` operation got an input it cannot use: a required one is missing, a number is not a positive integer, a `fields` entry is unknown.',
    "Fix the step's `inputs`; the message names the input and what it accepts (docs/workflows.md, GitHub operations).",
  ),
  [C.GITHUB_AUTH_FAILED]: entry(
    'GitHub refused the token (401): it is wrong, expired or revoked.',
    'Create a new token and export it as GITHUB_TOKEN or GH_TOKEN, or run `gh auth login` again.',
    C.GITHUB_NO_TOKEN,
  ),
  [C.GITHUB_FORBIDDEN]: entry(
    'GitHub answered 403: the token may not do this (a missing scope or fine-grained permission, or a repository rule).',
    'Give the token the permission the message names (e.g. Issues: write, Pull requests: write), or use another token.',
  ),
  [C.GITHUB_NOT_FOUND]: entry(
    'GitHub answered 404: the repository, issue or pull request does not exist, or the token cannot see it (a private repository answers 404).',
    'Check `repo` and `number`; check that the token has access to that repository.',
  ),
  [C.GITHUB_REJECTED]: entry(
    'GitHub refused the request as invalid (422): for example a branch that does not exist, or a label name it does not accept.',
    "Read GitHub's reason in the message and fix the step's inputs.",
  ),
  [C.QUEUE_NO_SECRET]: entry(
    'A queue is used (--queue or AWF_QUEUE_URL) but AWF_QUEUE_SECRET is not set, or is shorter than 16 characters: jobs are signed with it.',
    'Set the same AWF_QUEUE_SECRET for `awf run --queue` and every `awf worker`, e.g. from `openssl rand -hex 32`.',
  ),
  [C.QUEUE_INVALID_URL]: entry(
    'The queue URL is not a redis://, rediss://, postgres:// or postgresql:// URL.',
    'Give --queue (or AWF_QUEUE_URL) as redis://[user:password@]host:port[/db] or postgres://[user:password@]host:port/database.',
  ),
  [C.HISTORY_INVALID_URL]: entry(
    'The shared history URL (--history, AWF_HISTORY_URL) is not a postgres:// or postgresql:// URL.',
    'Give it as postgres://[user:password@]host:port/database; without it the history stays in SQLite.',
  ),
  [C.QUEUE_SECRET_INPUT]: entry(
    'A secret input was given with -i to a queued run: secret values never enter the queue.',
    "Set it in the workers' environment as AWF_INPUT_<NAME> (the input's name in upper case) and leave it out of -i.",
  ),
  [C.QUEUE_UNBUNDLABLE]: entry(
    "A queued run carries its workflow and the files it references; this file cannot be carried (its path is a template, or it lies outside the workflow's directory).",
    "Give the file a fixed path inside the workflow's directory, or run the workflow without --queue.",
  ),
  [C.QUEUE_RUN_ENDED]: entry(
    'The queued run has already ended, so it cannot be cancelled.',
    'See how it ended with `awf runs follow <id> --queue URL`.',
  ),
  [C.TUI_NO_TERMINAL]: entry(
    '`awf tui` draws on a terminal and reads keys from it: stdin or stdout is not a terminal, TERM is not set, or TERM is `dumb`.',
    'Start it from an interactive terminal; in scripts and CI use `awf run` to run a workflow and `awf runs` (or `awf history`) to read past runs.',
  ),
};
