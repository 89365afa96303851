import { ErrorCodes as C } from '../error-codes';
import { type CatalogueText, type CodesOf, entry } from './catalogue-entry';

type ReleaseCode =
  | CodesOf<'USER.RELEASE'>
  | CodesOf<'USER.PACK'>
  | CodesOf<'SYSTEM.RELEASE'>
  | CodesOf<'USER.UPGRADE'>
  | CodesOf<'SYSTEM.UPGRADE'>;

/** Installing packs and plugins from releases (docs/packs.md, docs/plugins.md), and `awf upgrade`. */
export const RELEASE_ERRORS: Record<ReleaseCode, CatalogueText> = {
  [C.RELEASE_INVALID_SOURCE]: entry(
    'A release install names its source as `owner/repo[@version]`; what was given is not of that form.',
    'Write it as `owner/repo` or `owner/repo@1.2.0` (an exact version, with or without a leading v).',
  ),
  [C.RELEASE_NOT_FOUND]: entry(
    'The releases API does not know the repository, or none of its releases is the version asked for (or a stable one).',
    'Check the spelling of owner/repo and the version; `awf workflow search` / `awf plugin search` list what is published.',
  ),
  [C.RELEASE_NO_ASSET]: entry(
    'The release has no archive awf can install: no .tar.gz asset (for a plugin: none for this OS and CPU), or no checksums.txt line for it.',
    'Ask the publisher to attach the archive and a checksums.txt (`<sha256>  <file>` lines) to the release.',
  ),
  [C.RELEASE_RATE_LIMITED]: entry(
    'The releases API refused the request: its rate limit for this address or token is spent, or the token was refused.',
    'Set GITHUB_TOKEN to a valid token (higher limits), or wait for the limit to reset.',
  ),
  [C.RELEASE_CHECKSUM_MISMATCH]: entry(
    'A downloaded archive (or, for `awf plugin verify`, an installed plugin) does not match its recorded SHA-256.',
    'Do not use it: download again, or ask the publisher; `awf plugin verify --update` records the files as they are now.',
  ),
  [C.RELEASE_UNSAFE_ARCHIVE]: entry(
    'The archive holds an entry awf refuses to unpack (a link, an absolute or `..` path, a device) or is larger than the cap; nothing was installed.',
    'Ask the publisher for an archive of plain files and folders under the size cap.',
  ),
  [C.RELEASE_UNREACHABLE]: entry(
    'The releases API or the download host could not be reached (no network, DNS, refused connection, timeout).',
    'Check the network and GITHUB_API_URL, then try again.',
  ),
  [C.RELEASE_API_FAILED]: entry(
    'The releases API answered with an error status or a body awf cannot read.',
    'Try again later; if GITHUB_API_URL is set, check that it points at a GitHub-compatible API.',
  ),
  [C.PACK_NOT_FOUND]: entry(
    'No installed workflow pack has that name (project .awf/workflow-packs, then the user directories).',
    '`awf workflow list` shows the installed packs; `awf workflow install owner/repo` installs one.',
  ),
  [C.PACK_INVALID_MANIFEST]: entry(
    "The pack's manifest.yaml is missing or wrong: name, version, awf_version or workflows (each listed workflow must have its file).",
    'Fix manifest.yaml in the pack (docs/packs.md lists its fields), publish a new release and install that.',
  ),
  [C.PACK_EXISTS]: entry(
    'A workflow pack of that name is already installed where this install would write.',
    'Pass --force to replace it, `awf workflow update NAME` to move to a newer release, or remove it first.',
  ),
  [C.PACK_NO_PROJECT]: entry(
    'A project install writes to .awf/workflow-packs, and this directory is not an awf project (no .awf/).',
    'Run `awf init` first, or install for the user with --global.',
  ),
  [C.PACK_INCOMPATIBLE]: entry(
    "The pack's awf_version does not accept this awf's version.",
    'Install a release of the pack made for this version, or upgrade awf.',
  ),
  [C.UPGRADE_NOT_PUBLISHED]: entry(
    "The npm registry awf is configured with has no package of awf's name, or what it has under that name is another package.",
    'Upgrade the way you installed awf (a git checkout: pull and build); or set npm_config_registry to the registry that publishes it.',
  ),
  [C.UPGRADE_NO_SUCH_VERSION]: entry(
    '`awf upgrade <version>` names a version the registry does not have.',
    '`awf upgrade --check` shows the latest; give an exact version the registry lists.',
  ),
  [C.UPGRADE_REGISTRY_FAILED]: entry(
    'The npm registry could not be reached, answered an error, or npm (which says which registry is configured) could not be run.',
    'Check the network and `npm config get registry`; npm_config_registry names a registry directly.',
  ),
  [C.UPGRADE_INSTALL_FAILED]: entry(
    'The package manager that installed awf failed to install the new version; its own output says why.',
    'Run the command it printed yourself (often a permission problem: a global prefix you cannot write).',
  ),
};
