// PacksModule: `awf workflow install|list|info|update|remove|search`, workflow packs installed
// from GitHub-style releases through the one ReleaseInstaller (infrastructure/releases).
// Running a pack's workflow (`awf run pack/wf`) needs none of this: the workflow repository
// finds pack folders itself (infrastructure/workflow/pack-paths.ts).
import { Module } from '@nestjs/common';
import { ReleaseInstaller } from '../releases/release-installer';
import { PackService } from './pack.service';

@Module({
  providers: [{ provide: ReleaseInstaller, useFactory: () => new ReleaseInstaller() }, PackService],
  exports: [PackService],
})
export class PacksModule {}
