import { existsSync } from 'node:fs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { BashSandbox } from '../../domain/proxy/bash-sandbox';
import { findExecutable } from './executable.lookup';

/** Where a sandboxed command runs: the root (read-write), and the directory it starts in. */
export interface SandboxPlace {
  rootDir: string;
  cwd: string;
  home?: string;
}

const INSTALL_HINT =
  'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; ' +
  'Arch: pacman -S bubblewrap), or set AWF_BWRAP to the path of a bwrap binary; where bwrap cannot run ' +
  '(unprivileged user namespaces turned off), run awf in a container instead, or turn the sandbox off ' +
  '(limits.bash_sandbox, the policy key bash_sandbox).';

/**
 * A bwrap binary that ran a command here, found once per process and binary: AWF_BWRAP when
 * set, else `bwrap` on PATH. Probing runs the same kind of sandbox a call gets (a trivial
 * command in new namespaces), so a kernel that forbids them is found before any step runs.
 */
const probed = new Map<string, string | undefined>();

export function bubblewrap(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.AWF_BWRAP;
  const binary = explicit ? (existsSync(explicit) ? explicit : undefined) : findExecutable('bwrap', env.PATH);
  if (!binary)
    throw unavailable(
      explicit
        ? `AWF_BWRAP names ${explicit}, which does not exist`
        : 'bubblewrap (bwrap) is not on PATH and AWF_BWRAP is not set',
    );
  if (!probed.has(binary)) probed.set(binary, probe(binary));
  const failure = probed.get(binary);
  if (failure !== undefined) throw unavailable(`${binary} cannot make a sandbox here: ${failure}`);
  return binary;
}

function probe(binary: string): string | undefined {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const args = sandboxArgs({ network: false, origins: [] }, { rootDir: '/', cwd: '/' });
  const run = spawnSync(binary, [...args, 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  if (run.status === 0) return undefined;
  const said = run.stderr?.toString().trim().split('\n').pop();
  return said || run.error?.message || `exit ${run.status ?? run.signal}`;
}

function unavailable(why: string): AwfError {
  return new AwfError(
    ErrorCodes.BASH_SANDBOX_UNAVAILABLE,
    `Bash must run sandboxed (bash_sandbox), and it cannot: ${why}`,
    {},
    INSTALL_HINT,
  );
}

/**
 * bwrap's arguments, before the command: the whole file system read-only, then fresh /dev,
 * /proc (of the new PID namespace only: `/proc/$PPID/environ` is bwrap's, which holds the
 * command's own allowlisted environment) and /tmp, empty home directories and /run (no other
 * user's files, no agent or D-Bus sockets), and the root bound read-write over them. No
 * capabilities (root in the sandbox cannot remount), no network unless allowed, a new session
 * (no terminal injection), and the whole sandbox is killed when its parent dies.
 */
export function sandboxArgs(mode: BashSandbox, place: SandboxPlace): string[] {
  const args = ['--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--unshare-pid', '--unshare-ipc'];
  args.push('--unshare-uts', '--unshare-cgroup-try');
  if (!mode.network) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  const hidden = ['/home', '/root', '/run', place.home].filter(
    (dir, i, all): dir is string => !!dir && dir !== '/' && all.indexOf(dir) === i && existsSync(dir),
  );
  for (const dir of hidden) args.push('--tmpfs', dir);
  // A resolver behind /run (systemd-resolved's stub) is what DNS needs when the network is allowed.
  if (mode.network && existsSync('/run/systemd/resolve'))
    args.push('--ro-bind', '/run/systemd/resolve', '/run/systemd/resolve');
  if (place.rootDir !== '/') args.push('--bind', place.rootDir, place.rootDir);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', place.cwd, '--');
  return args;
}
