import { ErrorCodes as C } from '../error-codes';
import { type CatalogueText, type CodesOf, entry } from './catalogue-entry';

/** USER.MCP_PROXY and USER.POLICY codes (exit 1): a step's proxy, its tools and its policy as written. */
export const MCP_PROXY_ERRORS: Record<CodesOf<'USER.MCP_PROXY'>, CatalogueText> = {
  [C.MCP_PROXY_CONFIG_MISSING]: entry(
    '`awf mcp-serve` was given a proxy config file that cannot be read.',
    'Pass --config=<file> with an existing proxy config; `awf run` writes one per agent step.',
  ),
  [C.MCP_PROXY_CONFIG_INVALID]: entry(
    'The proxy config of `awf mcp-serve` is not valid (not JSON, a wrong type), or its sandbox root does not exist.',
    'Fix the field the message names; a config that `awf run` wrote is always valid, so a hand-written one is the usual cause.',
  ),
  [C.MCP_PROXY_UNKNOWN_KEY]: entry(
    "A step's `mcp_proxy` block, or a proxy config, has a key awf does not know (often a typo).",
    'Correct or remove the key; the message lists the keys allowed there.',
  ),
  [C.MCP_PROXY_UNKNOWN_PLUGIN]: entry(
    '`mcp_proxy.plugin_tools` names a plugin that is not installed, or is disabled.',
    'Install it under ./.awf/plugins or $XDG_DATA_HOME/awf/plugins (or AWF_PLUGINS_PATH), or enable it; `awf plugin list` shows what is found.',
    C.PLUGIN_NOT_FOUND,
  ),
  [C.MCP_PROXY_UNKNOWN_OPERATION]: entry(
    '`mcp_proxy.plugin_tools[].expose` names an operation the plugin does not offer.',
    'Use an operation the plugin offers; `awf plugin list` shows them.',
  ),
  [C.MCP_PROXY_NAME_COLLISION]: entry(
    'Two tool sources serve the same tool name (two plugins, a plugin and a built-in, two extension modules, two servers).',
    'Expose only one of them, or give an upstream server a `prefix`; the message names both sources.',
  ),
  [C.MCP_PROXY_INVALID_TOOL_NAME]: entry(
    "A tool's name is not one MCP allows: letters, digits, `_` and `-`, at most 64 characters.",
    'Rename the tool, or the plugin or server it comes from.',
  ),
  [C.MCP_PROXY_EMPTY_PROXY]: entry(
    'A step enables the MCP proxy but it would serve no tool: `intercept_builtins` is off and no plugin tools or servers are listed.',
    'Set `intercept_builtins: true`, list `plugin_tools` or `servers`, or remove `mcp_proxy`.',
  ),
  [C.MCP_PROXY_UNSUPPORTED_PROVIDER]: entry(
    "The step's provider cannot be handed the MCP proxy; `awf validate` warns, and the step runs without it.",
    'Use a provider that takes the proxy (claude, gemini, codex, opencode, openai_compatible, script), or accept the warning.',
  ),
  [C.MCP_PROXY_INFINITE_LOOP_GUARD]: entry(
    "The openai_compatible provider's tool-call loop reached its bound without a text answer.",
    'Raise options.max_tool_iterations if the task needs more tool rounds, or check that the model can finish with a text answer.',
  ),
  [C.TOOL_UNKNOWN]: entry(
    "An agent called a tool that the step's proxy does not serve.",
    "Serve the tool (a built-in, a plugin operation, a server's tool), or fix the agent's call; the proxy's tools/list has the names.",
  ),
  [C.MCP_PROXY_UNKNOWN_SERVER]: entry(
    "A step's `mcp_proxy.servers` names a server that `mcp_servers:` of `.awf/config.yaml` does not define.",
    'Define it under `mcp_servers:`, or inline on the step with `command` or `url` (docs/upstream-servers.md).',
  ),
  [C.MCP_PROXY_INVALID_SERVER]: entry(
    'An upstream MCP server definition is not valid (neither or both of command and url, a wrong type, a bad prefix).',
    'Fix the field the message names (docs/upstream-servers.md).',
  ),
  [C.MCP_PROXY_INVALID_URL]: entry(
    "An upstream server's `url` is not an http(s) URL.",
    "Give the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp.",
  ),
  [C.MCP_PROXY_UNSET_VARIABLE]: entry(
    'An upstream server definition uses `${VAR}` for a variable that is not set.',
    'Export the variable in the environment awf runs in (the agent passes it on to awf mcp-serve).',
  ),
  [C.MCP_PROXY_UNSUPPORTED_SCHEMA]: entry(
    "A plugin operation's input has a schema type that an MCP tool input cannot express.",
    'Plugin authors: use string, integer, number or boolean inputs, and pass structured data as a JSON string.',
  ),
  [C.MCP_PIN_INVALID]: entry(
    "A file of awf's tool pins (`<data dir>/mcp-pins/<key>.json`) is not a pin file awf wrote.",
    'Remove the file the message names: the next run pins the tools listed then (docs/policy.md).',
  ),
  [C.MCP_PIN_NONE]: entry(
    '`awf mcp trust` names a server, plugin or module whose tools no proxy has pinned yet (under this data dir).',
    'Run a step that uses it first, with the same --storage, then trust it if its tools changed.',
  ),
  [C.MCP_AUTH_REQUIRED]: entry(
    'A remote MCP server asks for OAuth sign-in and awf has no usable token for it, and no person to ask.',
    'Run `awf mcp login <server>` once (tokens are kept, mode 0600, and refreshed); for unattended runs give the server `oauth: {grant: client_credentials, …}` (docs/upstream-servers.md).',
  ),
};

export const POLICY_ERRORS: Record<CodesOf<'USER.POLICY'>, CatalogueText> = {
  [C.POLICY_UNKNOWN_KEY]: entry(
    "A policy (`policy:` in `.awf/config.yaml`, or a step's `mcp_proxy.policy`) has a key awf does not know.",
    'Correct or remove it; docs/policy.md lists every key.',
  ),
  [C.APPROVAL_NOT_FOUND]: entry(
    '`awf approvals revoke` names an exact approval this data dir does not keep (revoked, expired, or another --storage).',
    '`awf approvals list` shows the ones kept, with their ids.',
  ),
  [C.POLICY_INVALID]: entry(
    'A policy value has the wrong type or form (a list expected, a budget that is not a count or a size).',
    'Fix the value at the path the message names (docs/policy.md).',
  ),
  [C.POLICY_BAD_GLOB]: entry(
    'A pattern in a policy is not a valid glob.',
    'Fix the pattern the message quotes (docs/policy.md describes the patterns).',
  ),
  [C.POLICY_NO_SUCH_TOOL]: entry(
    'A policy rule names a tool that the step does not serve.',
    'Check the name (`Read`, `Bash`, `<plugin>_<operation>`, `<server>_<tool>`), or remove the rule.',
  ),
  [C.POLICY_NEVER_MATCHES]: entry(
    'A policy rule can never match anything, so as written it has no effect.',
    'Fix the rule the message names, or remove it.',
  ),
};
