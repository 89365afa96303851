import { basename, dirname, join, resolve } from 'node:path';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import type { AgentStep, SkillRef } from '../../../domain/workflow/workflow.model';
import { type AwfDirs, homeDir } from '../run/awf-dirs';
import { MAX_EXTERNAL_FILE_BYTES } from '../validation/external-files';
import { interpolate, type RunContext } from '../run/run-context';

/** Where a step's roles and skills are found: the files port, the environment, the two directories. */
export interface AgentContextPlace {
  files?: WorkflowFiles;
  env: Readonly<Record<string, string | undefined>>;
  dirs: AwfDirs;
  cwd: string;
  /** The workflow file's directory: path references start there. */
  sourceDir: string;
}

export interface LoadedRole {
  name: string;
  file: string;
  content: string;
}

export interface LoadedSkill {
  name: string;
  location: string;
  content: string;
  resources: string[];
}

type Kind = { noun: 'role'; file: 'AGENTS.md' } | { noun: 'skill'; file: 'SKILL.md' };
const ROLE: Kind = { noun: 'role', file: 'AGENTS.md' };
const SKILL: Kind = { noun: 'skill', file: 'SKILL.md' };
/** AWF walks a skill's directory at most four levels down for its resources. */
const RESOURCE_DEPTH = 4;

/**
 * AWF's search order (its infrastructure/roles and /skills), first hit wins: the list in
 * $AWF_ROLES_PATH / $AWF_SKILLS_PATH alone when set; else the workflow's own `.awf` (for
 * `<x>/workflows/w.yaml`, `<x>/roles`: awf's local-before-global rule), `./.awf`, the
 * cross-client `./.agents` (and `./.claude` for skills), the config dir, then the same in `~`.
 */
export function contextDirs(kind: 'roles' | 'skills', place: AgentContextPlace): string[] {
  const listed = place.env[kind === 'roles' ? 'AWF_ROLES_PATH' : 'AWF_SKILLS_PATH'];
  if (listed)
    return listed
      .split(':')
      .filter(Boolean)
      .map((d) => resolve(place.cwd, d));
  const home = homeDir(place.env);
  const beside = basename(place.sourceDir) === 'workflows' ? [join(dirname(place.sourceDir), kind)] : [];
  const local = kind === 'roles' ? ['.awf', '.agents'] : ['.awf', '.agents', '.claude'];
  const global = kind === 'roles' ? ['.agents'] : ['.agents', '.claude'];
  return [
    ...new Set([
      ...beside,
      ...local.map((d) => join(place.cwd, d, kind)),
      place.dirs[`${kind}_dir`],
      ...global.map((d) => join(home, d, kind)),
    ]),
  ];
}

/** A role (AWF: a ref with a `/` or `\`, or starting with `.` or `~`, is a path) and its AGENTS.md text. */
export function loadRole(ref: string, place: AgentContextPlace, at: string): LoadedRole {
  const isPath = /[/\\]/.test(ref) || ref.startsWith('.') || ref.startsWith('~');
  const dir = isPath ? refPath(ref, place, 'roles', ROLE) : findByName(ref, 'roles', ROLE, place, at);
  const { text, file } = readContext(dir, ROLE, place, at, ref);
  return { name: basename(dir), file, content: stripFrontmatter(text) };
}

/** A skill, with its directory and the files beside its SKILL.md. */
export function loadSkill(ref: SkillRef, place: AgentContextPlace, at: string): LoadedSkill {
  const dir =
    'path' in ref ? refPath(ref.path, place, 'skills', SKILL) : findByName(ref.name, 'skills', SKILL, place, at);
  const { text } = readContext(dir, SKILL, place, at, 'path' in ref ? ref.path : ref.name);
  const resources = (place.files?.list(dir, RESOURCE_DEPTH) ?? []).filter((f) => f !== SKILL.file);
  return { name: basename(dir), location: dir, content: stripFrontmatter(text), resources };
}

/** AWF's (agentskills.io) block per skill, blank-line separated; the prompt follows after a blank line. */
export function skillsText(skills: readonly LoadedSkill[]): string {
  return skills
    .map((s) => {
      const files = s.resources.length
        ? `\n\n<skill_resources>\n${s.resources.map((r) => `<file>${r}</file>\n`).join('')}</skill_resources>`
        : '';
      return (
        `<skill_content name=${JSON.stringify(s.name)}>\n${s.content}\n\nSkill directory: ${s.location}\n` +
        `Relative paths in this skill are relative to the skill directory.${files}\n</skill_content>`
      );
    })
    .join('\n\n');
}

/** AWF: the role's text, a blank line, then the step's `system_prompt`; an empty part is left out. */
export function composeSystemPrompt(role: string | undefined, inline: string | undefined): string | undefined {
  const parts = [role, inline].filter((p): p is string => !!p);
  return parts.length ? parts.join('\n\n') : undefined;
}

/** YAML front matter (`---` … `---`) is not part of the text, as in AWF. */
export function stripFrontmatter(text: string): string {
  if (!text.startsWith('---\n')) return text;
  const rest = text.slice(4);
  const end = rest.indexOf('\n---\n');
  if (end >= 0) return rest.slice(end + 5).trim();
  return rest.endsWith('\n---') ? '' : text;
}

/** A path reference: `~/` in the home, relative from the workflow's dir, a global dir's local copy first. */
function refPath(ref: string, place: AgentContextPlace, kind: 'roles' | 'skills', what: Kind): string {
  const home = homeDir(place.env);
  let path = ref === '~' ? home : ref.startsWith('~/') ? join(home, ref.slice(2)) : resolve(place.sourceDir, ref);
  const global = place.dirs[`${kind}_dir`];
  if (global && path.startsWith(`${global}/`)) {
    const local = join(dirname(place.sourceDir), kind, path.slice(global.length + 1));
    if (place.files?.exists(local)) path = local;
  }
  return basename(path) === what.file ? dirname(path) : path;
}

function findByName(name: string, kind: 'roles' | 'skills', what: Kind, place: AgentContextPlace, at: string): string {
  const searched = contextDirs(kind, place);
  const hit = searched.find((d) => place.files?.exists(join(d, name, what.file)));
  if (hit) return join(hit, name);
  const bare = searched.find((d) => place.files?.exists(join(d, name)));
  const why = bare ? `${join(bare, name)} has no ${what.file}` : `no ${name}/${what.file} in ${searched.join(', ')}`;
  throw missing(what, at, `${what.noun} "${name}" not found: ${why}`, name);
}

function readContext(dir: string, what: Kind, place: AgentContextPlace, at: string, ref: string) {
  const file = join(dir, what.file);
  const read = place.files?.read(file, MAX_EXTERNAL_FILE_BYTES) ?? { problem: 'unreadable' as const };
  if ('text' in read) return { text: read.text, file };
  if (read.problem === 'too-large')
    throw new AwfError(
      ErrorCodes.INPUT_FILE_TOO_LARGE,
      `${at}: ${file} is over 1 MB${read.detail ? ` (${read.detail})` : ''}`,
      { path: file },
      `Shorten the ${what.file}; an agent's context is better spent on the task.`,
    );
  const why = read.problem === 'unreadable' ? `cannot be read${read.detail ? ` (${read.detail})` : ''}` : 'is missing';
  throw missing(what, at, `${what.noun} "${ref}": ${file} ${why}`, ref);
}

function missing(what: Kind, at: string, message: string, ref: string): AwfError {
  const isRole = what.noun === 'role';
  return new AwfError(
    isRole ? ErrorCodes.INPUT_MISSING_ROLE : ErrorCodes.INPUT_MISSING_SKILL,
    `${at}: ${message}`,
    { [what.noun]: ref },
    `Create .awf/${isRole ? 'roles' : 'skills'}/<name>/${what.file}, or fix the ${what.noun}'s name or path ` +
      "(a path is taken from the workflow's directory).",
  );
}

/**
 * What a running agent step gets from its role and skills (AWF's execution order): the skills'
 * text to put before the prompt, and the system prompt (role, then `system_prompt`). The role is
 * a template; rendered empty, there is none.
 */
export function stepAgentContext(step: AgentStep, ctx: RunContext): { skills?: string; systemPrompt?: string } {
  const place: AgentContextPlace = {
    files: ctx.files,
    env: ctx.env,
    dirs: ctx.awf,
    cwd: ctx.cwd,
    sourceDir: ctx.workflow.sourceDir ?? ctx.cwd,
  };
  const at = `states.${step.name}`;
  const ref = step.role ? interpolate(ctx, step.role, step.name, 'role') : '';
  const role = ref ? loadRole(ref, place, `${at}.role`) : undefined;
  const skills = (step.skills ?? []).map((s, i) => loadSkill(s, place, `${at}.skills[${i}]`));
  return {
    ...(skills.length ? { skills: skillsText(skills) } : {}),
    ...withDefined('systemPrompt', composeSystemPrompt(role?.content, step.systemPrompt)),
  };
}

function withDefined<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
