// ProjectConfigModule (global): `.awf/config.yaml` as the container's PROJECT_CONFIG, read
// once per process. The CLI reads the file before it builds the container (its `extensions:`
// shape the container) and hands that copy here; without one, the file of the working
// directory is read once, when the container is built. mcp-serve's container gets the config
// of the run's project (the directory of its --config file).
// Must never import a feature module.
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { loadProjectConfig, type ProjectConfig } from './project-config.loader';

/** The project's `.awf/config.yaml` (ProjectConfig), as the process read it. */
export const PROJECT_CONFIG = Symbol('PROJECT_CONFIG');

@Global()
@Module({})
export class ProjectConfigModule {
  static forRoot(project?: ProjectConfig): DynamicModule {
    return {
      module: ProjectConfigModule,
      providers: [{ provide: PROJECT_CONFIG, useFactory: () => project ?? loadProjectConfig() }],
      exports: [PROJECT_CONFIG],
    };
  }
}
