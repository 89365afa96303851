// DiagramModule: the images of `awf diagram -o x.svg|png|pdf`. Its libraries load on first use;
// nothing else in awf may need this module.
import { Module } from '@nestjs/common';
import { DIAGRAM_IMAGES } from '../../domain/ports/diagram-images.port';
import { GraphvizDiagramImages } from './graphviz-diagram.images';

@Module({
  providers: [{ provide: DIAGRAM_IMAGES, useFactory: () => new GraphvizDiagramImages() }],
  exports: [DIAGRAM_IMAGES],
})
export class DiagramModule {}
