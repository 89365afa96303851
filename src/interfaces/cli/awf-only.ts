/**
 * AWF's commands and flags (reference §3) that awf does not have, each with why and what to
 * use instead: AWF's documented command lines get a refusal that says so, not "unknown".
 */
const AWF_ONLY: Record<string, string> = {
  '--config': 'AWF parses --config but never reads it: the project config is .awf/config.yaml, or $AWF_CONFIG_PATH',
};

/** For commander's "unknown command 'x'" / "unknown option 'x'": AWF's reason, if x is AWF's. */
export function awfOnly(message: string): { message: string; hint: string } | undefined {
  const m = /^unknown (command|option) '([^']+)'/.exec(message);
  const name = m && m[2].split('=')[0];
  const why = name ? AWF_ONLY[name] : undefined;
  if (!m || !name || !why) return undefined;
  return { message: `\`${name}\` is an AWF ${m[1]} that awf does not have`, hint: `${why}.` };
}
