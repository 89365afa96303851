// PluginsModule: gRPC plugin discovery, the plugin process host (go-plugin handshake,
// AutoMTLS, Init/Shutdown), the tools plugins expose (<plugin>_<operation>, found by the
// router through @ProvidesTools), PLUGIN_CATALOG, the `awf plugin init` scaffolder and the
// `awf plugin install/remove` installer, and installs from releases (install owner/repo, update, verify,
// search) through the one ReleaseInstaller shared with workflow packs.
// Global so that PLUGIN_CATALOG reaches `validate`/`run` without them importing this module.
// gRPC is loaded only when a plugin starts. Must never import the MCP SDK or another
// feature module.
import { Global, Module } from '@nestjs/common';
import { PLUGIN_CATALOG } from '../../domain/ports/plugin-catalog.port';
import { PluginCatalogService } from './plugin-catalog.service';
import { PluginDiscovery } from './plugin-discovery.service';
import { PluginHost } from './plugin-host.service';
import { PluginInstaller } from './plugin-installer.service';
import { PluginReleases } from './plugin-releases.service';
import { PluginScaffolder } from './plugin-scaffold.service';
import { PluginStateStore } from './plugin-state.store';
import { PluginToolProvider } from './plugin-tool.provider';
import { ReleaseInstaller } from '../releases/release-installer';

@Global()
@Module({
  providers: [
    PluginDiscovery,
    PluginStateStore,
    PluginHost,
    PluginToolProvider,
    PluginCatalogService,
    PluginScaffolder,
    PluginInstaller,
    PluginReleases,
    { provide: ReleaseInstaller, useFactory: () => new ReleaseInstaller() },
    { provide: PLUGIN_CATALOG, useExisting: PluginCatalogService },
  ],
  exports: [PLUGIN_CATALOG, PluginCatalogService, PluginScaffolder, PluginInstaller, PluginDiscovery, PluginReleases],
})
export class PluginsModule {}
